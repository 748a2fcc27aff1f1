// Photo-like demo pictures of cars (issue 22): the car's shape by body type, in its colour, lit
// from above with a painted-metal gradient, a sky reflection along its flank, tinted glass, alloy
// wheels and a soft contact shadow, parked in a place (a suburban street at midday, a coastal road
// at golden hour, a city street at dusk, a cabin with the landscape through the windscreen) whose
// background is out of focus as a phone camera's would be, with a little grain and a vignette.
// Drawn as SVG from the shapes in car-illustrations.ts, once per body type and angle, with the
// paint in neutral grey; seed-photos.ts renders that once and paints each car in its colour by
// multiplying the body (the `mask` drawing of the same scene) by the colour, which is cheap.
import { PROFILES, profileFor, shade, type PhotoAngle, type Profile } from './car-illustrations';

export const SCENE_WIDTH = 1280;
export const SCENE_HEIGHT = 800;

interface Setting {
  sky: [string, string, string];
  sun: { x: number; y: number; colour: string; glow: number };
  far: string;
  ground: [string, string];
  light: number;
}

const SETTINGS: Record<PhotoAngle, Setting> = {
  side: { sky: ['#5d9fd8', '#a9d0ef', '#e9f3f8'], sun: { x: 1080, y: 90, colour: '#fff8e0', glow: 0.55 }, far: 'trees', ground: ['#8d9095', '#5d6066'], light: 1 },
  front: { sky: ['#f08a4b', '#f7c58a', '#fbe7c6'], sun: { x: 260, y: 300, colour: '#fff1c4', glow: 0.8 }, far: 'hills', ground: ['#9b8a78', '#6a5b4e'], light: 0.92 },
  rear: { sky: ['#1f2b52', '#5a6aa0', '#c98f7a'], sun: { x: 980, y: 330, colour: '#ffd9a8', glow: 0.45 }, far: 'city', ground: ['#55585f', '#2f3136'], light: 0.75 },
  interior: { sky: ['#9ccbea', '#d5ebf7', '#f3f8fb'], sun: { x: 900, y: 120, colour: '#ffffff', glow: 0.4 }, far: 'trees', ground: ['#6f8f5a', '#4f6b3f'], light: 1 },
};

/** A deterministic number from a string: the same car always gets the same trees. */
function seeded(text: string): () => number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507) ^ Math.imul(h ^ (h >>> 13), 3266489909);
    return ((h >>>= 0) % 10000) / 10000;
  };
}

function background(kind: string, horizon: number, rand: () => number): string {
  if (kind === 'hills') {
    return `<path d="M0 ${horizon} L0 ${horizon - 120} Q 180 ${horizon - 220} 360 ${horizon - 140} T 720 ${horizon - 170} T 1080 ${horizon - 120} T 1280 ${horizon - 190} L1280 ${horizon} Z" fill="#a9714f" opacity="0.7"/>` +
      `<path d="M0 ${horizon} L0 ${horizon - 60} Q 240 ${horizon - 130} 520 ${horizon - 70} T 1000 ${horizon - 90} T 1280 ${horizon - 60} L1280 ${horizon} Z" fill="#7d5a43" opacity="0.85"/>`;
  }
  if (kind === 'city') {
    let blocks = '';
    for (let x = -20; x < 1300; ) {
      const w = 50 + rand() * 90;
      const h = 90 + rand() * 220;
      blocks += `<rect x="${x.toFixed(0)}" y="${(horizon - h).toFixed(0)}" width="${w.toFixed(0)}" height="${h.toFixed(0)}" fill="#1a2040"/>`;
      for (let wy = horizon - h + 14; wy < horizon - 20; wy += 22) {
        for (let wx = x + 8; wx < x + w - 12; wx += 18) {
          if (rand() < 0.45) blocks += `<rect x="${wx.toFixed(0)}" y="${wy.toFixed(0)}" width="8" height="10" fill="#ffd27a" opacity="${(0.5 + rand() * 0.5).toFixed(2)}"/>`;
        }
      }
      x += w + 6;
    }
    return blocks;
  }
  let trees = `<rect x="0" y="${horizon - 40}" width="1280" height="40" fill="#5f7d4b"/>`;
  for (let i = 0; i < 18; i++) {
    const x = rand() * 1280;
    const r = 50 + rand() * 70;
    const y = horizon - 30 - rand() * 40;
    trees += `<ellipse cx="${x.toFixed(0)}" cy="${(y - r * 0.6).toFixed(0)}" rx="${r.toFixed(0)}" ry="${(r * 1.1).toFixed(0)}" fill="${rand() < 0.5 ? '#3f6b3a' : '#55804a'}"/>`;
  }
  // A white wall and a house roof between the trees: a suburban street.
  trees += `<rect x="${(200 + rand() * 500).toFixed(0)}" y="${horizon - 150}" width="380" height="150" fill="#e8e2d6"/><path d="M ${(180 + rand() * 40).toFixed(0)} ${horizon - 150} l 210 -80 l 210 80 Z" fill="#8b4a3a"/>`;
  return trees + `<rect x="0" y="${horizon - 46}" width="1280" height="46" fill="#d9d4c8"/>`;
}

function wheel(x: number, y: number, r: number): string {
  const spokes = Array.from({ length: 5 }, (_, i) => {
    const a = (i * 72 * Math.PI) / 180;
    return `<path d="M ${x} ${y} L ${(x + Math.cos(a - 0.18) * r * 0.56).toFixed(1)} ${(y + Math.sin(a - 0.18) * r * 0.56).toFixed(1)} L ${(x + Math.cos(a + 0.18) * r * 0.56).toFixed(1)} ${(y + Math.sin(a + 0.18) * r * 0.56).toFixed(1)} Z" fill="url(#rim)"/>`;
  }).join('');
  return `<circle cx="${x}" cy="${y}" r="${r}" fill="url(#tyre)"/>` +
    `<circle cx="${x}" cy="${y}" r="${(r * 0.64).toFixed(1)}" fill="#2b2d31"/>` +
    `<circle cx="${x}" cy="${y}" r="${(r * 0.6).toFixed(1)}" fill="none" stroke="url(#rim)" stroke-width="${(r * 0.08).toFixed(1)}"/>` +
    spokes +
    `<circle cx="${x}" cy="${y}" r="${(r * 0.14).toFixed(1)}" fill="#9aa0a8"/>`;
}

/** The side view, scaled from the 800 x 500 outline of car-illustrations.ts. */
function sideCar(p: Profile): string {
  const s = p.shoulder;
  const outline = p.bed
    ? `M 96 368 L 96 ${s + 16} Q 100 ${s} 140 ${s - 6} L ${p.windBase} ${s - 12} L ${p.roofStart} ${p.roofY} L ${p.roofEnd} ${p.roofY} L ${p.rearBase} ${s - 8} L ${p.rearBase} ${s - 2} L 724 ${s - 2} L 724 368 Z`
    : `M 96 368 L 96 ${s + 16} Q 100 ${s} 140 ${s - 6} L ${p.windBase} ${s - 12} Q ${p.roofStart - 20} ${p.roofY + 8} ${p.roofStart + 10} ${p.roofY} L ${p.roofEnd - 10} ${p.roofY} Q ${p.roofEnd + 20} ${p.roofY + 4} ${p.rearBase} ${s - 10} L 700 ${s - 6} Q 722 ${s} 724 ${s + 16} L 724 368 Z`;
  const glassTop = p.roofY + 10;
  const glass = p.open
    ? `<path d="M ${p.windBase + 14} ${s - 14} L ${p.roofStart} ${p.roofY}" stroke="#1d2228" stroke-width="7" stroke-linecap="round"/>` +
      `<path d="M ${p.windBase + 60} ${s - 12} q 30 -40 70 -30 l 10 30 Z" fill="#2a2018"/>`
    : `<path d="M ${p.windBase + 22} ${s - 15} L ${p.roofStart + 10} ${glassTop} L ${p.roofEnd - 8} ${glassTop} L ${p.rearBase - 24} ${s - 15} Z" fill="url(#glass)"/>` +
      `<rect x="${Math.round((p.roofStart + p.roofEnd) / 2) - 4}" y="${glassTop}" width="8" height="${s - 15 - glassTop}" fill="#15181c"/>`;
  const wheelArch = (x: number) => `<path d="M ${x - 62} 368 A 62 62 0 0 1 ${x + 62} 368 Z" fill="#101114"/>`;
  return `<g transform="translate(66 110) scale(1.4)">` +
    `<ellipse cx="410" cy="372" rx="350" ry="26" fill="#000" opacity="0.55" filter="url(#soft)"/>` +
    `<path d="${outline}" fill="url(#paint)"/>` +
    `<path d="${outline}" fill="url(#flank)" opacity="0.55"/>` +
    `<path d="M 104 ${s + 30} C 300 ${s + 22} 540 ${s + 22} 718 ${s + 28}" stroke="#fff" stroke-width="5" opacity="0.35" fill="none" filter="url(#haze)"/>` +
    `<path d="M 110 ${s + 60} L 712 ${s + 60}" stroke="#000" stroke-width="2" opacity="0.25"/>` +
    glass +
    `<path d="M ${p.roofStart + 20} ${glassTop + 4} L ${p.roofStart + 90} ${glassTop + 4} L ${p.roofStart + 40} ${s - 18} L ${p.roofStart - 10} ${s - 18} Z" fill="#fff" opacity="0.18"/>` +
    `<rect x="300" y="${s + 8}" width="34" height="6" rx="3" fill="#d6d9de" opacity="0.8"/><rect x="470" y="${s + 8}" width="34" height="6" rx="3" fill="#d6d9de" opacity="0.8"/>` +
    `<path d="M 98 ${s + 14} q 18 -8 34 -4 l -2 14 q -18 2 -32 -2 Z" fill="#fff6d5"/>` +
    `<rect x="712" y="${s + 6}" width="12" height="22" rx="3" fill="#b3121a"/>` +
    wheelArch(225) + wheelArch(605) +
    wheel(225, 368, 54) + wheel(605, 368, 54) +
    `</g>`;
}

/** Front or rear, facing the camera. */
function endCar(p: Profile, rear: boolean): string {
  const top = p.roofY + 10;
  const sh = p.shoulder;
  const lights = rear
    ? `<rect x="222" y="${sh + 18}" width="84" height="26" rx="8" fill="#b3121a"/><rect x="494" y="${sh + 18}" width="84" height="26" rx="8" fill="#b3121a"/>` +
      `<rect x="222" y="${sh + 18}" width="84" height="26" rx="8" fill="#ff5a4a" opacity="0.5" filter="url(#haze)"/><rect x="494" y="${sh + 18}" width="84" height="26" rx="8" fill="#ff5a4a" opacity="0.5" filter="url(#haze)"/>` +
      `<rect x="348" y="${sh + 52}" width="104" height="28" rx="3" fill="#f3f3ee" stroke="#222" stroke-width="2"/>`
    : `<path d="M 222 ${sh + 22} q 40 -14 80 0 l -6 22 q -36 6 -70 0 Z" fill="#f8f6ea"/><path d="M 578 ${sh + 22} q -40 -14 -80 0 l 6 22 q 36 6 70 0 Z" fill="#f8f6ea"/>` +
      `<rect x="322" y="${sh + 24}" width="156" height="44" rx="12" fill="#17191d"/><path d="M 330 ${sh + 36} h 140 M 330 ${sh + 48} h 140 M 330 ${sh + 60} h 140" stroke="#3a3d42" stroke-width="3"/>`;
  const glass = p.open ? '' : `<path d="M 282 ${sh - 6} L 318 ${top + 8} L 482 ${top + 8} L 518 ${sh - 6} Z" fill="url(#glass)"/>`;
  return `<g transform="translate(40 100) scale(1.5)">` +
    `<ellipse cx="400" cy="404" rx="270" ry="22" fill="#000" opacity="0.55" filter="url(#soft)"/>` +
    `<rect x="222" y="340" width="64" height="66" rx="12" fill="#121316"/><rect x="514" y="340" width="64" height="66" rx="12" fill="#121316"/>` +
    `<path d="M 204 384 L 204 ${sh + 10} Q 208 ${sh - 12} 268 ${sh - 16} L 298 ${top} Q 400 ${top - 8} 502 ${top} L 532 ${sh - 16} Q 592 ${sh - 12} 596 ${sh + 10} L 596 384 Z" fill="url(#paint)"/>` +
    glass + lights +
    `<path d="M 214 ${sh + 4} Q 400 ${sh - 10} 586 ${sh + 4}" stroke="#fff" stroke-width="4" opacity="0.35" fill="none" filter="url(#haze)"/>` +
    `<rect x="212" y="374" width="376" height="14" rx="6" fill="#1b1c20"/>` +
    `</g>`;
}

function cabin(): string {
  const trim = '#bdbdbd';
  return `<path d="M 0 420 Q 640 330 1280 420 L 1280 800 L 0 800 Z" fill="url(#dash)"/>` +
    `<path d="M 0 455 Q 640 380 1280 455 L 1280 470 Q 640 396 0 470 Z" fill="${trim}"/>` +
    `<path d="M 0 0 L 130 0 L 60 440 L 0 460 Z" fill="#1a1b1e"/><path d="M 1280 0 L 1150 0 L 1220 440 L 1280 460 Z" fill="#1a1b1e"/>` +
    `<circle cx="400" cy="640" r="150" fill="none" stroke="#141517" stroke-width="34"/><circle cx="400" cy="640" r="46" fill="#1d1e21"/>` +
    `<path d="M 262 650 L 538 650" stroke="#141517" stroke-width="26"/>` +
    `<rect x="600" y="500" width="230" height="140" rx="14" fill="#0c1118"/><rect x="614" y="514" width="202" height="112" rx="8" fill="url(#screen)"/>` +
    `<rect x="880" y="520" width="200" height="34" rx="10" fill="#141517"/><rect x="880" y="570" width="200" height="34" rx="10" fill="#141517" opacity="0.8"/>` +
    `<rect x="0" y="0" width="1280" height="60" fill="#1a1b1e"/>`;
}

/** The painted parts black and everything else white: the body's mask, for painting it a colour. */
function maskOf(drawing: string): string {
  const painted = new Set(['url(#paint)', 'url(#flank)', '#bdbdbd']);
  return drawing
    .replace(/ (filter|opacity)="[^"]*"/g, '')
    .replace(/fill="([^"]*)"/g, (all, fill: string) => (painted.has(fill) ? 'fill="#000"' : fill === 'none' ? all : 'fill="#fff"'))
    .replace(/stroke="[^"]*"/g, 'stroke="#fff"');
}

/**
 * One photo-like picture of a body type from one angle, as an SVG document of SCENE_WIDTH x
 * SCENE_HEIGHT: the photo with the paint in light grey, or (`mask`) the painted parts in black on white.
 */
export function carScene(carType: string, angle: PhotoAngle, layer: 'photo' | 'mask' = 'photo'): string {
  const body = '#e8e8e8';
  const profile = PROFILES[profileFor(carType)]!;
  const setting = SETTINGS[angle];
  const rand = seeded(`${profileFor(carType)}|${angle}`);
  const horizon = angle === 'interior' ? 430 : angle === 'front' ? 470 : 450;
  const lit = (amount: number) => shade(body, amount * setting.light);
  const drawing = angle === 'side' ? sideCar(profile) : angle === 'interior' ? cabin() : endCar(profile, angle === 'rear');
  if (layer === 'mask') {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${SCENE_WIDTH}" height="${SCENE_HEIGHT}" viewBox="0 0 ${SCENE_WIDTH} ${SCENE_HEIGHT}"><rect width="${SCENE_WIDTH}" height="${SCENE_HEIGHT}" fill="#fff"/>${maskOf(drawing)}</svg>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SCENE_WIDTH}" height="${SCENE_HEIGHT}" viewBox="0 0 ${SCENE_WIDTH} ${SCENE_HEIGHT}">
<defs>
<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${setting.sky[0]}"/><stop offset="0.55" stop-color="${setting.sky[1]}"/><stop offset="1" stop-color="${setting.sky[2]}"/></linearGradient>
<radialGradient id="sun" cx="${setting.sun.x / SCENE_WIDTH}" cy="${setting.sun.y / SCENE_HEIGHT}" r="0.6"><stop offset="0" stop-color="${setting.sun.colour}" stop-opacity="${setting.sun.glow}"/><stop offset="1" stop-color="${setting.sun.colour}" stop-opacity="0"/></radialGradient>
<linearGradient id="ground" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${setting.ground[0]}"/><stop offset="1" stop-color="${setting.ground[1]}"/></linearGradient>
<linearGradient id="paint" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${lit(0.35)}"/><stop offset="0.35" stop-color="${lit(0.08)}"/><stop offset="0.62" stop-color="${lit(-0.12)}"/><stop offset="1" stop-color="${lit(-0.5)}"/></linearGradient>
<linearGradient id="flank" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#fff" stop-opacity="0"/><stop offset="0.3" stop-color="#fff" stop-opacity="0.35"/><stop offset="0.42" stop-color="#fff" stop-opacity="0"/><stop offset="0.75" stop-color="#000" stop-opacity="0.15"/><stop offset="1" stop-color="#000" stop-opacity="0.3"/></linearGradient>
<linearGradient id="glass" x1="0" y1="0" x2="0.4" y2="1"><stop offset="0" stop-color="#40505e"/><stop offset="0.5" stop-color="#1c252e"/><stop offset="1" stop-color="#0c1014"/></linearGradient>
<radialGradient id="tyre"><stop offset="0.7" stop-color="#232428"/><stop offset="1" stop-color="#0b0b0d"/></radialGradient>
<linearGradient id="rim" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#e4e7eb"/><stop offset="1" stop-color="#7d838b"/></linearGradient>
<linearGradient id="dash" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#34363b"/><stop offset="1" stop-color="#17181b"/></linearGradient>
<linearGradient id="screen" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2f7fd0"/><stop offset="1" stop-color="#143a66"/></linearGradient>
<radialGradient id="vignette" cx="0.5" cy="0.5" r="0.75"><stop offset="0.6" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.45"/></radialGradient>
<filter id="blur" x="-5%" y="-5%" width="110%" height="110%"><feGaussianBlur stdDeviation="5"/></filter>
<filter id="soft" x="-20%" y="-100%" width="140%" height="300%"><feGaussianBlur stdDeviation="12"/></filter>
<filter id="haze"><feGaussianBlur stdDeviation="3"/></filter>
<filter id="grain" x="0" y="0" width="100%" height="100%"><feTurbulence type="fractalNoise" baseFrequency="0.9" numOctaves="2" seed="${Math.floor(rand() * 100)}"/><feColorMatrix type="saturate" values="0"/><feComponentTransfer><feFuncA type="linear" slope="0.07"/></feComponentTransfer></filter>
</defs>
<rect width="${SCENE_WIDTH}" height="${SCENE_HEIGHT}" fill="url(#sky)"/>
<rect width="${SCENE_WIDTH}" height="${SCENE_HEIGHT}" fill="url(#sun)"/>
<g filter="url(#blur)">${background(setting.far, horizon, rand)}</g>
<rect x="0" y="${horizon}" width="${SCENE_WIDTH}" height="${SCENE_HEIGHT - horizon}" fill="url(#ground)"/>
${angle === 'interior' ? '' : `<path d="M 0 ${horizon + 40} L 1280 ${horizon + 30}" stroke="#e9e4d2" stroke-width="6" opacity="0.5" filter="url(#haze)"/><path d="M 0 ${horizon + 300} L 1280 ${horizon + 290}" stroke="#f2f0e6" stroke-width="10" stroke-dasharray="90 70" opacity="0.55"/>`}
${drawing}
<rect width="${SCENE_WIDTH}" height="${SCENE_HEIGHT}" fill="url(#vignette)"/>
</svg>`;
}
