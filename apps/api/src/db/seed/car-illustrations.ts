// Generated car photos for the demo data: SVG illustrations in the car's colour, one scene per
// angle (side, front, rear, interior), shaped by the body type. Made at seed time: no network,
// no binary files in git.
import { colourHex } from '@karoo/shared';

export const PHOTO_ANGLES = ['side', 'front', 'rear', 'interior'] as const;
export type PhotoAngle = (typeof PHOTO_ANGLES)[number];

interface Profile {
  shoulder: number;
  roofY: number;
  windBase: number;
  roofStart: number;
  roofEnd: number;
  rearBase: number;
  bed?: boolean;
  open?: boolean;
}

const PROFILES: Record<string, Profile> = {
  sedan: { shoulder: 292, roofY: 205, windBase: 270, roofStart: 345, roofEnd: 525, rearBase: 625 },
  hatchback: { shoulder: 290, roofY: 200, windBase: 265, roofStart: 340, roofEnd: 590, rearBase: 690 },
  suv: { shoulder: 278, roofY: 175, windBase: 250, roofStart: 320, roofEnd: 650, rearBase: 705 },
  van: { shoulder: 270, roofY: 160, windBase: 185, roofStart: 245, roofEnd: 700, rearBase: 716 },
  pickup: { shoulder: 282, roofY: 180, windBase: 250, roofStart: 318, roofEnd: 470, rearBase: 490, bed: true },
  sports: { shoulder: 308, roofY: 238, windBase: 300, roofStart: 380, roofEnd: 500, rearBase: 660 },
  convertible: { shoulder: 305, roofY: 250, windBase: 300, roofStart: 350, roofEnd: 360, rearBase: 380, open: true },
};

export function profileFor(carType: string): keyof typeof PROFILES {
  const type = carType.toLowerCase();
  if (type.includes('pickup')) return 'pickup';
  if (type.includes('van')) return 'van';
  if (type.includes('suv') || type.includes('crossover')) return 'suv';
  if (type.includes('hatch') || type.includes('electric')) return 'hatchback';
  if (type.includes('convertible')) return 'convertible';
  if (type.includes('sport') || type.includes('coupe')) return 'sports';
  return 'sedan';
}

function shade(hex: string, amount: number): string {
  const n = parseInt(hex.slice(1), 16);
  const channel = (shift: number) => Math.max(0, Math.min(255, Math.round(((n >> shift) & 255) * (1 + amount))));
  return `#${[16, 8, 0].map((s) => channel(s).toString(16).padStart(2, '0')).join('')}`;
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function wheel(x: number, y: number): string {
  return `<g><circle cx="${x}" cy="${y}" r="46" fill="#1d1f23"/><circle cx="${x}" cy="${y}" r="28" fill="#c9ccd1"/>` +
    `<circle cx="${x}" cy="${y}" r="20" fill="none" stroke="#8d9197" stroke-width="4"/><circle cx="${x}" cy="${y}" r="7" fill="#5b5f66"/></g>`;
}

function sideCar(body: string, p: Profile): string {
  const s = p.shoulder;
  const dark = shade(body, -0.25);
  const outline = p.bed
    ? `M 96 368 L 96 ${s + 16} Q 100 ${s} 140 ${s - 6} L ${p.windBase} ${s - 12} L ${p.roofStart} ${p.roofY} L ${p.roofEnd} ${p.roofY} ` +
      `L ${p.rearBase} ${s - 8} L ${p.rearBase} ${s - 2} L 724 ${s - 2} L 724 368 Z`
    : `M 96 368 L 96 ${s + 16} Q 100 ${s} 140 ${s - 6} L ${p.windBase} ${s - 12} L ${p.roofStart} ${p.roofY} L ${p.roofEnd} ${p.roofY} ` +
      `L ${p.rearBase} ${s - 10} L 700 ${s - 6} Q 722 ${s} 724 ${s + 16} L 724 368 Z`;
  const glassTop = p.roofY + 12;
  const windows = p.open
    ? `<path d="M ${p.windBase + 14} ${s - 14} L ${p.roofStart} ${p.roofY}" stroke="#9fc3dd" stroke-width="8" stroke-linecap="round"/>`
    : `<path d="M ${p.windBase + 22} ${s - 15} L ${p.roofStart + 8} ${glassTop} L ${p.roofEnd - 8} ${glassTop} L ${p.rearBase - 24} ${s - 15} Z" fill="#9fc3dd" opacity="0.9"/>` +
      `<rect x="${Math.round((p.roofStart + p.roofEnd) / 2) - 5}" y="${glassTop}" width="10" height="${s - 15 - glassTop}" fill="${dark}"/>`;
  return `<ellipse cx="410" cy="${402}" rx="330" ry="18" fill="#000" opacity="0.18"/>` +
    `<path d="${outline}" fill="${body}" stroke="${dark}" stroke-width="3"/>` +
    `<path d="M 110 ${s + 34} L 712 ${s + 34}" stroke="${dark}" stroke-width="3" opacity="0.6"/>` +
    windows +
    `<ellipse cx="112" cy="${s + 18}" rx="12" ry="8" fill="#fff6c7"/><rect x="712" y="${s + 8}" width="10" height="18" rx="3" fill="#d43c3c"/>` +
    wheel(225, 368) + wheel(605, 368);
}

function frontCar(body: string, p: Profile, rear: boolean): string {
  const dark = shade(body, -0.3);
  const top = p.roofY + 10;
  const shoulder = p.shoulder;
  const lights = rear
    ? `<rect x="228" y="${shoulder + 20}" width="70" height="24" rx="6" fill="#d43c3c"/><rect x="502" y="${shoulder + 20}" width="70" height="24" rx="6" fill="#d43c3c"/>` +
      `<rect x="350" y="${shoulder + 50}" width="100" height="28" rx="3" fill="#f7f7f2" stroke="#333" stroke-width="2"/>`
    : `<ellipse cx="262" cy="${shoulder + 30}" rx="36" ry="16" fill="#fff6c7"/><ellipse cx="538" cy="${shoulder + 30}" rx="36" ry="16" fill="#fff6c7"/>` +
      `<rect x="330" y="${shoulder + 22}" width="140" height="38" rx="10" fill="#2a2c30"/>`;
  const glass = p.open ? '' : `<path d="M 285 ${shoulder - 6} L 320 ${top + 8} L 480 ${top + 8} L 515 ${shoulder - 6} Z" fill="#9fc3dd"/>`;
  return `<ellipse cx="400" cy="402" rx="230" ry="16" fill="#000" opacity="0.2"/>` +
    `<rect x="228" y="350" width="56" height="56" rx="10" fill="#1d1f23"/><rect x="516" y="350" width="56" height="56" rx="10" fill="#1d1f23"/>` +
    `<path d="M 210 380 L 210 ${shoulder + 10} Q 214 ${shoulder - 10} 270 ${shoulder - 14} L 300 ${top} L 500 ${top} L 530 ${shoulder - 14} Q 586 ${shoulder - 10} 590 ${shoulder + 10} L 590 380 Z" fill="${body}" stroke="${dark}" stroke-width="3"/>` +
    glass + lights;
}

function interior(body: string): string {
  const trim = shade(body, -0.2);
  return `<rect x="0" y="300" width="800" height="200" fill="#26282c"/>` +
    `<path d="M 0 300 Q 400 250 800 300 L 800 340 L 0 340 Z" fill="#33363b"/>` +
    `<rect x="0" y="332" width="800" height="10" fill="${trim}"/>` +
    `<circle cx="250" cy="400" r="95" fill="none" stroke="#141518" stroke-width="22"/><circle cx="250" cy="400" r="26" fill="#141518"/>` +
    `<rect x="370" y="352" width="150" height="90" rx="10" fill="#0f1720"/><rect x="382" y="364" width="126" height="66" rx="6" fill="#1f6fb2" opacity="0.8"/>` +
    `<rect x="600" y="360" width="120" height="24" rx="6" fill="#141518"/>`;
}

const SCENES: Record<PhotoAngle, { sky: [string, string]; ground: string; extra: string }> = {
  side: { sky: ['#8fc9f0', '#e8f4fb'], ground: '#7c8087', extra: '<circle cx="680" cy="90" r="38" fill="#ffe08a" opacity="0.9"/>' },
  front: { sky: ['#f7a35c', '#f3dfb8'], ground: '#8a7d70', extra: '<path d="M 0 250 L 140 190 L 260 240 L 400 170 L 560 235 L 690 185 L 800 230 L 800 300 L 0 300 Z" fill="#b07a55" opacity="0.55"/>' },
  rear: {
    sky: ['#2b3a67', '#7d8fc2'],
    ground: '#4b4f57',
    extra: '<path d="M 0 300 L 0 200 L 60 200 L 60 160 L 120 160 L 120 210 L 200 210 L 200 130 L 250 130 L 250 220 L 340 220 L 340 180 L 420 180 L 420 140 L 470 140 L 470 215 L 560 215 L 560 170 L 640 170 L 640 205 L 720 205 L 720 150 L 800 150 L 800 300 Z" fill="#1b2340" opacity="0.8"/>',
  },
  interior: { sky: ['#b9dcf2', '#eef7fc'], ground: '#6f8f5a', extra: '<path d="M 0 240 Q 200 200 400 235 T 800 225 L 800 300 L 0 300 Z" fill="#88a86e"/>' },
};

/** One photo of a car as an SVG document. */
export function carIllustration(car: { car_make: string; car_model: string; car_year: number; car_color: string; car_type: string }, angle: PhotoAngle): string {
  const body = colourHex(car.car_color);
  const profile = PROFILES[profileFor(car.car_type)]!;
  const scene = SCENES[angle];
  const id = `sky-${angle}`;
  const drawing =
    angle === 'side' ? sideCar(body, profile) : angle === 'front' ? frontCar(body, profile, false) : angle === 'rear' ? frontCar(body, profile, true) : interior(body);
  const caption = escape(`${car.car_year} ${car.car_make} ${car.car_model} · ${car.car_color}`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 500" width="800" height="500" role="img" aria-label="${caption}">
<defs><linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${scene.sky[0]}"/><stop offset="1" stop-color="${scene.sky[1]}"/></linearGradient></defs>
<rect width="800" height="500" fill="url(#${id})"/>${scene.extra}
<rect x="0" y="${angle === 'interior' ? 300 : 390}" width="800" height="${angle === 'interior' ? 200 : 110}" fill="${scene.ground}"/>
${drawing}
</svg>
`;
}
