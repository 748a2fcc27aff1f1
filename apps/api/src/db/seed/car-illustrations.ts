// The shapes of the demo cars by body type (side outline, roof, windscreen, load bed, open top),
// drawn into photo-like scenes by car-scenes.ts: one per angle (side, front, rear, interior).

export const PHOTO_ANGLES = ['side', 'front', 'rear', 'interior'] as const;
export type PhotoAngle = (typeof PHOTO_ANGLES)[number];

export interface Profile {
  shoulder: number;
  roofY: number;
  windBase: number;
  roofStart: number;
  roofEnd: number;
  rearBase: number;
  bed?: boolean;
  open?: boolean;
}

export const PROFILES: Record<string, Profile> = {
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

export function shade(hex: string, amount: number): string {
  const n = parseInt(hex.slice(1), 16);
  const channel = (shift: number) => Math.max(0, Math.min(255, Math.round(((n >> shift) & 255) * (1 + amount))));
  return `#${[16, 8, 0].map((s) => channel(s).toString(16).padStart(2, '0')).join('')}`;
}
