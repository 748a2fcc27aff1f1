// Demo cars, bookings and reviews (decisions.md section 11): about 60 verified cars over the 14
// base cities with generated photos, pickup and insurance options, past trips with reviews, a
// couple of rentals under way and some pending and confirmed requests. Deterministic: one seeded
// generator drives every choice, and dates are relative to the app clock's today.
import {
  addDays,
  BASE_CITIES,
  bookingExpiresAt,
  buildCarUsername,
  calculatePrice,
  CAR_FEATURES,
  DEFAULT_SETTINGS,
  localInstant,
  SAFETY_FEATURES,
  type InsuranceOption,
  type PickupOption,
  todayIn,
} from '@karoo/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Db } from '../connection';
import type { BookingStatusValue, NewBooking, NewCar, StoredInsuranceOption, StoredPickupOption } from '../schema';
import { publicUrl } from '../../lib/public-files';
import { enqueuePhotoSweep, storedInsuranceOption, storedPickupOption } from '../../modules/cars';
import * as ledger from '../../modules/ledger';
import { refreshRatings } from '../../modules/reviews';
import { PHOTO_ANGLES, type PhotoAngle } from './car-illustrations';
import { demoCarPhoto } from './seed-photos';
import { makePdf } from './demo-files';

/** mulberry32: a small seeded generator, so the demo is the same on every start. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const some = <T>(items: readonly T[], min: number, max: number): T[] => {
    const pool = [...items];
    const out: T[] = [];
    const count = Math.min(pool.length, int(min, max));
    while (out.length < count) out.push(pool.splice(Math.floor(next() * pool.length), 1)[0]!);
    return out;
  };
  const uuid = () => {
    const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16)).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[Math.floor(next() * 4)]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };
  return { next, int, pick, some, uuid };
}

interface Model {
  make: string;
  model: string;
  type: string;
  price: number;
  value: number;
  seats: number;
  doors: number;
  transmission: 'Automatic' | 'Manual' | 'CVT';
  fuel: 'Petrol' | 'Diesel' | 'Electric' | 'Hybrid';
  engine: string;
  consumption: string;
}

const m = (make: string, model: string, type: string, price: number, value: number, seats: number, doors: number, transmission: Model['transmission'], fuel: Model['fuel'], engine: string, consumption: string): Model => ({
  make, model, type, price, value, seats, doors, transmission, fuel, engine, consumption,
});

export const DEMO_MODELS: Model[] = [
  m('Volkswagen', 'Polo Vivo', 'Hatchback', 380, 260000, 5, 5, 'Manual', 'Petrol', '1.4L', '5.9L/100km'),
  m('Suzuki', 'Swift', 'Hatchback', 350, 230000, 5, 5, 'Manual', 'Petrol', '1.2L', '4.9L/100km'),
  m('Toyota', 'Starlet', 'Hatchback', 380, 260000, 5, 5, 'Manual', 'Petrol', '1.5L', '5.4L/100km'),
  m('Hyundai', 'Grand i10', 'Hatchback', 360, 240000, 5, 5, 'Manual', 'Petrol', '1.2L', '5.3L/100km'),
  m('Kia', 'Picanto', 'Hatchback', 350, 220000, 4, 5, 'Manual', 'Petrol', '1.2L', '5.0L/100km'),
  m('Renault', 'Kwid', 'Hatchback', 350, 190000, 5, 5, 'Manual', 'Petrol', '1.0L', '4.7L/100km'),
  m('Volkswagen', 'Polo', 'Hatchback', 480, 380000, 5, 5, 'Automatic', 'Petrol', '1.0 TSI', '5.2L/100km'),
  m('Toyota', 'Corolla', 'Sedan', 620, 430000, 5, 4, 'CVT', 'Petrol', '1.8L', '6.2L/100km'),
  m('Honda', 'Amaze', 'Sedan', 450, 300000, 5, 4, 'CVT', 'Petrol', '1.2L', '5.6L/100km'),
  m('Suzuki', 'Dzire', 'Sedan', 400, 250000, 5, 4, 'Manual', 'Petrol', '1.2L', '4.9L/100km'),
  m('Toyota', 'Corolla Cross', 'Crossover', 750, 460000, 5, 5, 'Automatic', 'Petrol', '1.8L', '6.8L/100km'),
  m('Haval', 'Jolion', 'SUV', 680, 420000, 5, 5, 'Automatic', 'Petrol', '1.5T', '7.2L/100km'),
  m('Chery', 'Tiggo 4 Pro', 'Crossover', 600, 380000, 5, 5, 'CVT', 'Petrol', '1.5L', '7.0L/100km'),
  m('Nissan', 'Magnite', 'Crossover', 480, 320000, 5, 5, 'CVT', 'Petrol', '1.0T', '5.9L/100km'),
  m('Kia', 'Sonet', 'Crossover', 520, 350000, 5, 5, 'Automatic', 'Petrol', '1.5L', '6.4L/100km'),
  m('Volkswagen', 'T-Cross', 'Crossover', 720, 450000, 5, 5, 'Automatic', 'Petrol', '1.0 TSI', '5.8L/100km'),
  m('Mazda', 'CX-5', 'SUV', 950, 620000, 5, 5, 'Automatic', 'Petrol', '2.0L', '7.4L/100km'),
  m('Toyota', 'Fortuner', 'SUV', 1350, 760000, 7, 5, 'Automatic', 'Diesel', '2.8 GD-6', '8.2L/100km'),
  m('Mahindra', 'XUV700', 'SUV', 900, 560000, 7, 5, 'Automatic', 'Diesel', '2.2 mHawk', '7.9L/100km'),
  m('Toyota', 'Hilux', 'Pickup Truck', 1100, 680000, 5, 4, 'Manual', 'Diesel', '2.4 GD-6', '7.9L/100km'),
  m('Ford', 'Ranger', 'Pickup Truck', 1250, 720000, 5, 4, 'Automatic', 'Diesel', '2.0 Bi-Turbo', '8.0L/100km'),
  m('Isuzu', 'D-Max', 'Pickup Truck', 1000, 620000, 5, 4, 'Manual', 'Diesel', '1.9 Ddi', '7.6L/100km'),
  m('Suzuki', 'Ertiga', 'Minivan', 550, 300000, 7, 5, 'Automatic', 'Petrol', '1.5L', '6.2L/100km'),
  m('Hyundai', 'Staria', 'Van', 1600, 900000, 8, 5, 'Automatic', 'Diesel', '2.2 CRDi', '9.0L/100km'),
  m('Mercedes-Benz', 'V-Class', 'Van', 2200, 1500000, 7, 5, 'Automatic', 'Diesel', 'V250d', '7.8L/100km'),
  m('BMW', '3 Series', 'Luxury Car', 1600, 900000, 5, 4, 'Automatic', 'Petrol', '2.0 (320i)', '6.4L/100km'),
  m('Mercedes-Benz', 'C-Class', 'Luxury Car', 1800, 980000, 5, 4, 'Automatic', 'Petrol', '2.0 (C200)', '6.9L/100km'),
  m('Audi', 'Q5', 'SUV', 2000, 1100000, 5, 5, 'Automatic', 'Diesel', '2.0 TDI', '6.8L/100km'),
  m('Land Rover', 'Defender', 'SUV', 2500, 1800000, 5, 5, 'Automatic', 'Diesel', '3.0 D300', '9.6L/100km'),
  m('Volvo', 'XC60', 'SUV', 1900, 1050000, 5, 5, 'Automatic', 'Hybrid', 'B5 mild hybrid', '7.1L/100km'),
  m('Volkswagen', 'Golf', 'Hatchback', 1150, 780000, 5, 5, 'Automatic', 'Petrol', '2.0 TSI (GTI)', '7.3L/100km'),
  m('MINI', 'Convertible', 'Convertible', 1300, 700000, 4, 2, 'Automatic', 'Petrol', '2.0 (Cooper S)', '6.6L/100km'),
  m('Ford', 'Mustang', 'Sports Car', 2400, 1300000, 4, 2, 'Automatic', 'Petrol', '5.0 V8', '12.4L/100km'),
  m('Porsche', '911', 'Sports Car', 2500, 2600000, 4, 2, 'Automatic', 'Petrol', '3.0 Carrera', '10.1L/100km'),
  m('BYD', 'Atto 3', 'Electric Vehicle', 1100, 770000, 5, 5, 'Automatic', 'Electric', '150 kW motor', '16 kWh/100km'),
  m('Toyota', 'Corolla Cross', 'Hybrid', 850, 530000, 5, 5, 'CVT', 'Hybrid', '1.8 Hybrid', '4.3L/100km'),
  m('Jeep', 'Wrangler', 'SUV', 1700, 1100000, 4, 5, 'Automatic', 'Petrol', '3.6 V6', '10.5L/100km'),
];

const COLOURS = ['White', 'White', 'Silver', 'Grey', 'Black', 'Red', 'Blue', 'Navy Blue', 'Champagne', 'Orange', 'Dark Green', 'Burgundy'];

interface CityPlaces {
  plate: (r: ReturnType<typeof seededRandom>) => string;
  airport?: [string, string];
  mall: [string, string];
  business: [string, string];
  streets: string[];
}

const L = 'BCDFGHJKLMNPRSTVWXYZ';
const letters = (r: ReturnType<typeof seededRandom>, n: number) => Array.from({ length: n }, () => r.pick([...L])).join('');
const digits = (r: ReturnType<typeof seededRandom>, n: number) => Array.from({ length: n }, () => r.int(0, 9)).join('');
const gauteng = (r: ReturnType<typeof seededRandom>) => `${letters(r, 2)} ${digits(r, 2)} ${letters(r, 2)} GP`;
const suffix = (code: string) => (r: ReturnType<typeof seededRandom>) => `${letters(r, 3)} ${digits(r, 3)} ${code}`;
const prefix = (code: string) => (r: ReturnType<typeof seededRandom>) => `${code} ${digits(r, 3)}-${digits(r, 3)}`;

export const CITY_PLACES: Record<string, CityPlaces> = {
  Johannesburg: { plate: gauteng, airport: ['OR Tambo International Airport', 'O.R. Tambo Airport Rd, Kempton Park, 1632'], mall: ['Sandton City', '83 Rivonia Rd, Sandhurst, Sandton, 2196'], business: ['Rosebank Gautrain Station', 'Oxford Rd, Rosebank, Johannesburg, 2196'], streets: ['14 Jan Smuts Ave, Rosebank', '27 4th Ave, Parkhurst', '8 Tyrwhitt Ave, Rosebank', '51 7th St, Melville'] },
  'Cape Town': { plate: prefix('CA'), airport: ['Cape Town International Airport', 'Matroosfontein, Cape Town, 7490'], mall: ['V&A Waterfront', '19 Dock Rd, V&A Waterfront, Cape Town, 8001'], business: ['Cape Town Station', 'Adderley St, Cape Town City Centre, 8000'], streets: ['22 Kloof St, Gardens', '5 Regent Rd, Sea Point', '110 Bree St, City Centre', '3 Main Rd, Claremont'] },
  Durban: { plate: prefix('ND'), airport: ['King Shaka International Airport', 'King Shaka Dr, La Mercy, 4407'], mall: ['Gateway Theatre of Shopping', '1 Palm Blvd, Umhlanga Ridge, 4319'], business: ['Durban ICC', '45 Bertha Mkhize St, Durban, 4001'], streets: ['9 Florida Rd, Morningside', '17 Lighthouse Rd, Umhlanga', '40 Musgrave Rd, Berea'] },
  Pretoria: { plate: gauteng, airport: ['Wonderboom National Airport', 'Lindveld Ave, Wonderboom, 0182'], mall: ['Menlyn Park Shopping Centre', 'Atterbury Rd, Menlo Park, Pretoria, 0181'], business: ['Hatfield Gautrain Station', 'Grosvenor St, Hatfield, Pretoria, 0083'], streets: ['310 Lynnwood Rd, Menlo Park', '12 Duncan St, Hatfield', '88 Glenwood Rd, Lynnwood'] },
  Gqeberha: { plate: suffix('EC'), airport: ['Chief Dawid Stuurman International Airport', 'Allister Miller Dr, Walmer, 6070'], mall: ['Boardwalk Mall', 'Marine Dr, Summerstrand, 6001'], business: ['Baakens Valley', '1 Baakens St, Central, 6001'], streets: ['5 Marine Dr, Summerstrand', '21 Heugh Rd, Walmer'] },
  Bloemfontein: { plate: suffix('FS'), airport: ['Bram Fischer International Airport', 'Airport Rd, Bloemfontein, 9300'], mall: ['Mimosa Mall', '131 Kellner St, Brandwag, 9301'], business: ['Waterfront Bloemfontein', 'Second Ave, Westdene, 9301'], streets: ['12 Church St, Bloemfontein', '40 Kellner St, Westdene'] },
  'East London': { plate: suffix('EC'), airport: ['King Phalo Airport', 'Settlers Way, East London, 5201'], mall: ['Hemingways Mall', 'Two Rivers Dr, Nahoon Valley, 5241'], business: ['East London ICC', 'Esplanade St, Quigney, 5201'], streets: ['16 Beach Rd, Nahoon', '8 Oxford St, Central'] },
  Polokwane: { plate: suffix('L'), airport: ['Polokwane International Airport', 'Gateway Ave, Polokwane, 0699'], mall: ['Mall of the North', 'Cnr N1 & R81, Bendor, 0699'], business: ['Polokwane CBD', 'Thabo Mbeki St, Polokwane, 0700'], streets: ['24 Hans van Rensburg St, Polokwane'] },
  Mbombela: { plate: suffix('MP'), airport: ['Kruger Mpumalanga International Airport', 'R538, Mbombela, 1200'], mall: ['Ilanga Mall', 'Flamboyant St, Mbombela, 1201'], business: ['Riverside Government Complex', 'Government Blvd, Riverside Park, 1200'], streets: ['7 Paul Kruger St, Mbombela'] },
  Kimberley: { plate: suffix('NC'), airport: ['Kimberley Airport', 'Oliver Rd, Kimberley, 8301'], mall: ['Diamond Pavilion Mall', 'Cnr Oliver & Memorial Rds, Kimberley, 8301'], business: ['The Big Hole', 'West Circular Rd, Kimberley, 8301'], streets: ['19 Du Toitspan Rd, Kimberley'] },
  Rustenburg: { plate: suffix('NW'), airport: ['Pilanesberg International Airport', 'R565, Mogwase, 0314'], mall: ['Waterfall Mall', 'Augrabies Ave, Waterfall East, Rustenburg, 0299'], business: ['Rustenburg Civic Centre', 'Beyers Naude Dr, Rustenburg, 0300'], streets: ['33 Heystek St, Rustenburg'] },
  Pietermaritzburg: { plate: prefix('NP'), airport: ['Pietermaritzburg Airport', 'Oribi Rd, Pietermaritzburg, 3201'], mall: ['Liberty Midlands Mall', '50 Sanctuary Rd, Chase Valley, 3201'], business: ['Pietermaritzburg City Hall', 'Chief Albert Luthuli St, 3201'], streets: ['11 Howick Rd, Wembley'] },
  George: { plate: prefix('CAW'), airport: ['George Airport', 'Airport Rd, George, 6529'], mall: ['Garden Route Mall', 'Knysna Rd, George, 6529'], business: ['George Civic Centre', 'York St, George, 6530'], streets: ['9 Courtenay St, George'] },
  Stellenbosch: { plate: prefix('CL'), mall: ['Eikestad Mall', '43 Andringa St, Stellenbosch, 7600'], business: ['Stellenbosch Station', 'Adam Tas Rd, Stellenbosch, 7600'], streets: ['6 Dorp St, Stellenbosch', '14 Ryneveld St, Stellenbosch'] },
};

/** Which host lists how many cars in which city (60 in all). */
export const DEMO_FLEET: { city: string; host: string; count: number }[] = [
  { city: 'Johannesburg', host: 'host_thabo', count: 10 },
  { city: 'Cape Town', host: 'host_lerato', count: 9 },
  { city: 'Durban', host: 'host_ayanda', count: 7 },
  { city: 'Pretoria', host: 'host_johan', count: 6 },
  { city: 'Gqeberha', host: 'host_zanele', count: 5 },
  { city: 'Stellenbosch', host: 'host_lerato', count: 3 },
  { city: 'George', host: 'host_zanele', count: 3 },
  { city: 'Pietermaritzburg', host: 'host_ayanda', count: 3 },
  { city: 'Bloemfontein', host: 'host_thabo', count: 3 },
  { city: 'East London', host: 'host_zanele', count: 3 },
  { city: 'Polokwane', host: 'host_johan', count: 2 },
  { city: 'Mbombela', host: 'host_johan', count: 2 },
  { city: 'Kimberley', host: 'host_thabo', count: 2 },
  { city: 'Rustenburg', host: 'host_johan', count: 2 },
];

const RULES = ['No smoking', 'No pets', 'Return with the same fuel level', 'No off-road driving', 'Maximum 300 km per day', 'Please keep the car clean', 'No driving on gravel roads', 'Drivers must be 23 or older'];

const REVIEW_COMMENTS: Record<number, string[]> = {
  5: [
    'Spotless car and a super friendly host. Pickup at the airport was seamless.',
    'Exactly as described. Drove it all the way along the coast without a single issue.',
    'Great communication, the car was clean and the tank was full. Would book again!',
    'Perfect for our weekend away. Easy handover and very fair price.',
    'Lovely car, smooth drive, and the host even left a bottle of water for us.',
  ],
  4: [
    'Good car and easy pickup. Slight delay at handover but the host kept us informed.',
    'Comfortable and economical. A small scratch on the bumper was already noted in the listing.',
    'Reliable car for a business trip. Would have liked a phone mount, otherwise great.',
  ],
  3: ['The car was fine but not as clean as the photos. Host was responsive though.', 'Decent value. Aircon took a while to cool the car in the heat.'],
  2: ['Pickup was 40 minutes late and the car needed a wash.'],
};

function pickupOptionsFor(r: ReturnType<typeof seededRandom>, city: string, model: Model, hostStreet: string): StoredPickupOption[] {
  const places = CITY_PLACES[city]!;
  const times = ['07:00', '09:00', '13:00', '17:00', '19:00'];
  // Written in rand, as a host enters them; stored in cents by the cars module's conversion.
  const options: PickupOption[] = [
    { id: `pickup_${r.uuid().slice(0, 12).replace(/-/g, '')}`, name: "Host's home", address: `${hostStreet}, ${city}`, additional_fee: 0, type: 'standard', available_times: ['09:00', '13:00', '17:00'] },
  ];
  if (places.airport && r.next() < 0.75) {
    options.push({ id: `pickup_${r.uuid().slice(0, 12).replace(/-/g, '')}`, name: places.airport[0], address: places.airport[1], additional_fee: r.pick([150, 200, 250, 300]), type: 'airport', available_times: r.some(times, 3, 5).sort() });
  }
  if (r.next() < 0.6) {
    options.push({ id: `pickup_${r.uuid().slice(0, 12).replace(/-/g, '')}`, name: places.mall[0], address: places.mall[1], additional_fee: r.pick([0, 50, 80]), type: 'mall', available_times: ['10:00', '14:00', '18:00'] });
  }
  if (r.next() < 0.3) {
    options.push({ id: `pickup_${r.uuid().slice(0, 12).replace(/-/g, '')}`, name: places.business[0], address: places.business[1], additional_fee: r.pick([50, 100]), type: 'business', available_times: ['08:00', '12:00', '17:00'] });
  }
  if (model.price >= 600 && r.next() < 0.55) {
    options.push({ id: `pickup_${r.uuid().slice(0, 12).replace(/-/g, '')}`, name: 'Delivery to your address', address: `Anywhere in ${city}`, additional_fee: r.pick([250, 300, 350, 400]), type: 'premium', available_times: ['08:00', '12:00', '16:00', '18:00'] });
  }
  return options.map(storedPickupOption);
}

function insuranceOptionsFor(r: ReturnType<typeof seededRandom>, model: Model): StoredInsuranceOption[] {
  const scale = model.price >= 1500 ? 2 : model.price >= 900 ? 1.5 : 1;
  const id = () => `insurance_${r.uuid().slice(0, 12).replace(/-/g, '')}`;
  const plans: InsuranceOption[] = [
    { id: id(), name: 'Basic Cover', description: 'Third-party liability and roadside assistance, included in the price.', daily_rate: 0, excess_amount: Math.round(15000 * scale), coverage: ['Third-party liability', 'Roadside assistance'], included: true, popular: false, recommended: false },
    { id: id(), name: 'Standard Cover', description: 'Lower excess with collision damage and theft protection.', daily_rate: Math.round(85 * scale), excess_amount: Math.round(5000 * scale), coverage: ['Collision damage waiver', 'Theft protection', 'Third-party liability', '24/7 roadside assistance'], included: false, popular: true, recommended: false },
    ...(r.next() < 0.7
      ? [{ id: id(), name: 'Premium Cover', description: 'Zero excess, tyres and glass included: drive without worries.', daily_rate: Math.round(160 * scale), excess_amount: 0, coverage: ['Zero excess', 'Collision damage waiver', 'Theft protection', 'Tyre and glass cover', '24/7 roadside assistance'], included: false, popular: false, recommended: true }]
      : []),
  ];
  return plans.map(storedInsuranceOption);
}

function describe(r: ReturnType<typeof seededRandom>, year: number, colour: string, model: Model, city: string): string {
  const name = `${year} ${model.make} ${model.model}`;
  const openers = [
    `Well-kept ${name} in ${colour.toLowerCase()}, perfect for getting around ${city} and beyond.`,
    `Reliable ${name} (${colour.toLowerCase()}), serviced on schedule and cleaned before every trip.`,
    `Comfortable ${name} based in ${city}: ideal for business trips, family visits and weekend getaways.`,
    `My ${colour.toLowerCase()} ${name} is ready for your next road trip from ${city}.`,
  ];
  const detail = `${model.transmission}, ${model.fuel.toLowerCase()}, ${model.seats} seats${model.fuel === 'Electric' ? ', charging cable included' : `, about ${model.consumption}`}.`;
  const closers = ['Smooth handover and quick replies guaranteed.', 'Child seat available on request.', 'Toll tag fitted; tolls are billed after the trip.', 'Perfect for the coastal roads and long drives.'];
  return `${r.pick(openers)} ${detail} ${r.pick(closers)}`;
}

function price(model: { price: number }, isHourly: boolean, days: number, hours: number, pickup: StoredPickupOption | null, insurance: StoredInsuranceOption | null) {
  return calculatePrice({ dailyPrice: model.price, isHourly, days, hours, pickupFee: (pickup?.additional_fee_cents ?? 0) / 100, insuranceDailyRate: (insurance?.daily_rate_cents ?? 0) / 100, settings: DEFAULT_SETTINGS });
}

export interface SeededCar {
  id: string;
  car_username: string;
  owner: string;
  city: string;
  price: number;
  verification_status: string;
}

/**
 * Makes every photo the demo fleet can have (each body type in each demo colour from each angle)
 * into the photo cache (seed-photos.ts), so that no seed waits for one: the API test suites' global
 * setup runs it once; on a machine that already has them it only reads the folder.
 */
export async function warmDemoCarPhotos(): Promise<number> {
  let count = 0;
  for (const type of new Set(DEMO_MODELS.map((m) => m.type))) {
    for (const colour of new Set(COLOURS)) {
      for (const angle of PHOTO_ANGLES) {
        await demoCarPhoto({ car_type: type, car_color: colour }, angle);
        count += 1;
      }
    }
  }
  return count;
}

/** Inserts the demo fleet, its photos and documents, bookings and reviews. `ids` maps usernames to user ids. */
export async function seedDemoCars(ctx: AppContext, db: Db, ids: Record<string, string>): Promise<SeededCar[]> {
  const r = seededRandom(20250816);
  const now = ctx.clock.now();
  const today = todayIn(now);
  const thisYear = Number(today.slice(0, 4));
  const store = ctx.publicFiles;
  const cars: (NewCar & { id: string; model: Model; city: string; owner: string })[] = [];
  const writes: Promise<void>[] = [];
  const photos: { key: string; car: Parameters<typeof demoCarPhoto>[0]; angle: PhotoAngle }[] = [];

  const addCar = (city: string, owner: string, model: Model, verification: 'verified' | 'pending_verification' | 'rejected', ageDays: number) => {
    const base = BASE_CITIES.find((c) => c.name === city)!;
    const places = CITY_PLACES[city]!;
    const id = r.uuid();
    const year = r.int(Math.max(2017, thisYear - 7), thisYear - (model.price > 2000 ? 1 : 0));
    const colour = r.pick(COLOURS);
    const carUsername = buildCarUsername(model.make, model.model, String(r.int(100000, 999999)));
    const photoAngles = PHOTO_ANGLES.slice(0, r.int(2, 4));
    const car = { car_make: model.make, car_model: model.model, car_year: year, car_color: colour, car_type: model.type };
    const images = photoAngles.map((angle) => {
      const key = `cars/${id}/${angle}.jpg`;
      photos.push({ key, car, angle });
      return publicUrl(key);
    });
    const registrationKey = `cars/${id}/registration-demo.pdf`;
    writes.push(ctx.privateFiles.put(registrationKey, makePdf(['Vehicle registration certificate (demo)', `${year} ${model.make} ${model.model}`, `Owner: ${owner}`, 'Generated demo document for the Karoo sandbox.'])));
    const hasDocument = verification !== 'pending_verification' || r.next() < 0.5;
    const created = new Date(now.getTime() - ageDays * 86_400_000);
    cars.push({
      id,
      model,
      city,
      owner,
      car_username: carUsername,
      owner_id: ids[owner]!,
      car_make: model.make,
      car_model: model.model,
      car_year: year,
      car_color: colour,
      car_type: model.type,
      car_plate_number: places.plate(r),
      car_value_cents: model.value * 100,
      car_rent_price_cents: model.price * 100,
      car_odometer: (thisYear - year + 1) * r.int(9000, 18000),
      description: describe(r, year, colour, model, city),
      images: JSON.stringify(images),
      pickup_location: city,
      latitude: Math.round((base.latitude + (r.next() - 0.5) * 0.06) * 1e6) / 1e6,
      longitude: Math.round((base.longitude + (r.next() - 0.5) * 0.06) * 1e6) / 1e6,
      status: 'available',
      verification_status: verification,
      admin_notes: verification === 'rejected' ? 'The photos do not show the number plate. Please add a clear photo of the plate.' : null,
      specifications: JSON.stringify({ transmission: model.transmission, fuelType: model.fuel, seats: model.seats, doors: model.doors, engine: model.engine, fuelConsumption: model.consumption }),
      features: JSON.stringify(r.some(CAR_FEATURES, model.price > 1200 ? 9 : 5, model.price > 1200 ? 14 : 10)),
      safety: JSON.stringify(r.some(SAFETY_FEATURES, 4, 8)),
      rules: JSON.stringify(r.some(RULES, 2, 4)),
      pickup_options: JSON.stringify(pickupOptionsFor(r, city, model, r.pick(places.streets))),
      insurance_options: JSON.stringify(insuranceOptionsFor(r, model)),
      registration_storage_key: hasDocument ? registrationKey : null,
      registration_filename: hasDocument ? 'registration-certificate.pdf' : null,
      registration_mime: hasDocument ? 'application/pdf' : null,
      registration_uploaded_at: hasDocument ? created : null,
      registration_verified: hasDocument ? (verification === 'verified' ? true : null) : null,
      created_at: created,
      updated_at: created,
    });
  };

  for (const { city, host, count } of DEMO_FLEET) {
    for (let i = 0; i < count; i++) addCar(city, host, r.pick(DEMO_MODELS), 'verified', r.int(60, 420));
  }
  // The admins' queue: two cars awaiting verification and one sent back.
  addCar('Pretoria', 'host_johan', DEMO_MODELS.find((x) => x.model === 'Fortuner')!, 'pending_verification', 2);
  addCar('George', 'host_zanele', DEMO_MODELS.find((x) => x.model === 'Jolion')!, 'pending_verification', 1);
  addCar('Durban', 'host_ayanda', DEMO_MODELS.find((x) => x.model === 'Polo Vivo')!, 'rejected', 6);

  await db.insertInto('cars').values(cars.map(({ model: _m, city: _c, owner: _o, ...car }) => car)).execute();

  // ---- Bookings ----
  const renters = ['sipho', 'kagiso', 'priya', 'ruan', 'aisha', 'host_johan', 'host_lerato', 'host_thabo'];
  const bookings: NewBooking[] = [];
  const reviews: { booking_id: string; car_id: string; reviewer_id: string; rating: number; comment: string; created_at: Date; updated_at: Date }[] = [];
  let bookingSeq = 0;
  const bookingNumber = () => `KR${String(100000 + ++bookingSeq * 7919).slice(-6)}DM`;

  const addBooking = (
    car: (typeof cars)[number],
    renter: string,
    start: string,
    days: number,
    status: BookingStatusValue,
    extra: Partial<NewBooking> = {},
  ) => {
    const pickups = JSON.parse(car.pickup_options as string) as StoredPickupOption[];
    const insurances = JSON.parse(car.insurance_options as string) as StoredInsuranceOption[];
    const pickup = r.next() < 0.5 ? r.pick(pickups) : null;
    const insurance = r.next() < 0.6 ? r.pick(insurances) : null;
    const p = price(car.model, false, days, 0, pickup, insurance);
    const id = r.uuid();
    const end = addDays(start, days);
    const created = localInstant(start, '08:00').getTime() - r.int(3, 20) * 86_400_000;
    bookings.push({
      id,
      booking_number: bookingNumber(),
      car_id: car.id,
      renter_id: ids[renter]!,
      owner_id: car.owner_id,
      start_date: start,
      end_date: end,
      start_time: '09:00',
      end_time: '17:00',
      is_hourly_booking: false,
      duration_days: days,
      status,
      subtotal_cents: p.cents.subtotal,
      service_fee_cents: p.cents.serviceFee,
      insurance_fee_cents: p.cents.insuranceFee,
      pickup_fee_cents: p.cents.pickupFee,
      total_price_cents: p.cents.total,
      service_fee_rate: p.serviceFeeRate,
      commission_rate: p.commissionRate,
      car_owner_earnings_cents: p.cents.carOwnerEarnings,
      app_fee_cents: p.cents.appFee,
      pickup_option: pickup ? JSON.stringify(pickup) : null,
      insurance_option: insurance ? JSON.stringify(insurance) : null,
      payment_status: 'unpaid',
      created_at: new Date(created),
      updated_at: new Date(created),
      ...extra,
    });
    // Open requests and unpaid acceptances carry their deadline, by the bookings module's rule.
    const row = bookings.at(-1)!;
    row.expires_at = bookingExpiresAt({
      status,
      payment_status: row.payment_status ?? 'unpaid',
      start_date: row.start_date,
      created_at: row.created_at as Date,
      confirmed_at: (row.confirmed_at as Date | null | undefined) ?? null,
    });
    return { id, end };
  };

  const verified = cars.filter((c) => c.verification_status === 'verified');
  for (const car of verified) {
    // Past trips, walking back from a few weeks ago; about three in four cars have some.
    if (r.next() < 0.25) continue;
    let cursor = addDays(today, -r.int(6, 30));
    for (let trip = r.int(1, 4); trip > 0; trip--) {
      const days = r.int(1, 6);
      const start = addDays(cursor, -days);
      const renter = r.pick(renters.filter((u) => u !== car.owner));
      const returnedAt = localInstant(addDays(start, days), '17:30');
      const paidAt = localInstant(start, '07:00');
      // About seven in ten past trips are paid out, two days after the return, with an EFT reference.
      const paidOut = r.next() < 0.7;
      const { id } = addBooking(car, renter, start, days, 'completed', {
        payment_status: 'paid',
        payment_provider: 'sandbox',
        payment_reference: `KRDEMO-${bookingSeq + 1}-${car.car_username.slice(-6)}`,
        paid_at: paidAt,
        confirmed_at: new Date(paidAt.getTime() - 86_400_000),
        host_response: 'Booking approved by host',
        host_response_date: new Date(paidAt.getTime() - 86_400_000),
        completed_at: returnedAt,
        actual_return_date: returnedAt,
        condition_notes: 'Returned via host dashboard',
        payout_status: paidOut ? 'paid' : 'pending',
        ...(paidOut ? { payout_at: new Date(returnedAt.getTime() + 2 * 86_400_000), payout_reference: `EFT-DEMO-${bookingSeq + 1}` } : {}),
      });
      if (r.next() < 0.85) {
        const rating = r.next() < 0.03 ? 2 : r.pick([5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 3]);
        const when = new Date(returnedAt.getTime() + r.int(2, 40) * 3_600_000);
        reviews.push({ booking_id: id, car_id: car.id, reviewer_id: ids[renter]!, rating, comment: r.pick(REVIEW_COMMENTS[rating]!), created_at: when, updated_at: when });
      }
      cursor = addDays(start, -r.int(5, 40));
    }
  }

  // Rentals under way, and requests waiting for hosts and renters.
  const byOwner = (owner: string, city?: string) => verified.filter((c) => c.owner === owner && (!city || c.city === city));
  const firstCar = (owner: string, city?: string, skip = 0) => byOwner(owner, city)[skip]!;
  const started = addDays(today, -1);
  const activeExtra = (ref: string) => ({
    payment_status: 'paid' as const,
    payment_provider: 'sandbox',
    payment_reference: ref,
    paid_at: new Date(now.getTime() - 2 * 86_400_000),
    confirmed_at: new Date(now.getTime() - 3 * 86_400_000),
    host_response: 'Booking approved by host',
    host_response_date: new Date(now.getTime() - 3 * 86_400_000),
  });
  addBooking(firstCar('host_thabo', 'Johannesburg', 1), 'sipho', started, 3, 'active', activeExtra('KRDEMO-ACTIVE-1'));
  addBooking(firstCar('host_lerato', 'Cape Town', 2), 'aisha', addDays(today, -2), 5, 'active', activeExtra('KRDEMO-ACTIVE-2'));
  addBooking(firstCar('host_ayanda', 'Durban', 0), 'kagiso', addDays(today, 9), 4, 'active', activeExtra('KRDEMO-ACTIVE-3'));
  const confirmedExtra = { confirmed_at: new Date(now.getTime() - 3_600_000), host_response: 'Booking approved by host', host_response_date: new Date(now.getTime() - 3_600_000) };
  const confirmedRecently = { ...confirmedExtra, created_at: new Date(now.getTime() - 26 * 3_600_000), updated_at: new Date(now.getTime() - 3_600_000) };
  addBooking(firstCar('host_thabo', 'Johannesburg', 2), 'sipho', addDays(today, 12), 3, 'confirmed', confirmedRecently);
  addBooking(firstCar('host_lerato', 'Stellenbosch', 0), 'priya', addDays(today, 6), 2, 'confirmed', confirmedRecently);
  addBooking(firstCar('host_johan', 'Pretoria', 0), 'ruan', addDays(today, 4), 2, 'confirmed', confirmedRecently);
  // Requests expire 48 hours after they are made (decisions.md section 5): these are recent, and the
  // confirmed ones above were accepted an hour ago.
  const recent = (hours: number) => ({ created_at: new Date(now.getTime() - hours * 3_600_000), updated_at: new Date(now.getTime() - hours * 3_600_000) });
  addBooking(firstCar('host_thabo', 'Johannesburg', 0), 'sipho', addDays(today, 5), 2, 'pending', recent(5));
  addBooking(firstCar('host_thabo', 'Johannesburg', 3), 'kagiso', addDays(today, 8), 4, 'pending', recent(20));
  addBooking(firstCar('host_lerato', 'Cape Town', 0), 'sipho', addDays(today, 15), 6, 'pending', { special_requirements: 'Arriving on the afternoon flight; could we collect at 15:00?', ...recent(2) });
  addBooking(firstCar('host_zanele', 'Gqeberha', 0), 'ruan', addDays(today, 3), 3, 'pending', recent(30));
  addBooking(firstCar('host_ayanda', 'Durban', 1), 'priya', addDays(today, -20), 2, 'cancelled', { cancelled_at: new Date(now.getTime() - 25 * 86_400_000), host_response: 'Cancelled by renter' });
  addBooking(firstCar('host_johan', 'Pretoria', 1), 'sipho', addDays(today, -14), 3, 'rejected', { host_response: 'Sorry, the car is booked for a family trip that weekend.', host_response_date: new Date(now.getTime() - 18 * 86_400_000) });

  await db.insertInto('bookings').values(bookings).execute();
  await recordDemoMoney(db, bookings, ids.admin!);
  if (reviews.length) await db.insertInto('reviews').values(reviews).execute();

  // Ratings follow the reviews (cars and hosts, by the reviews module's one rule); renters' trip
  // counts follow the completed bookings.
  await refreshRatings(db);
  await sql`
    UPDATE users SET total_trips = (SELECT count(*) FROM bookings b WHERE b.renter_id = users.id AND b.status = 'completed')
  `.execute(db);

  const notifications = [
    { user_id: ids.host_thabo!, type: 'booking_request', title: 'New booking request', message: 'Sipho Nkosi wants to book your car. Accept or reject the request.', link: '/my-bookings' },
    { user_id: ids.host_lerato!, type: 'booking_request', title: 'New booking request', message: 'Sipho Nkosi wants to book your car. Accept or reject the request.', link: '/my-bookings' },
    { user_id: ids.sipho!, type: 'booking_confirmed', title: 'Booking confirmed', message: 'Thabo accepted your booking request. Pay to secure it.', link: '/my-bookings' },
    { user_id: ids.host_johan!, type: 'car_pending', title: 'Car submitted', message: 'Your Toyota Fortuner is awaiting verification by an administrator.', link: '/host-dashboard' },
    { user_id: ids.host_ayanda!, type: 'car_rejected', title: 'Car not approved', message: 'Your Volkswagen Polo Vivo was not approved: the photos do not show the number plate.', link: '/host-dashboard' },
  ];
  // Told an hour ago by the app clock, like every other seeded date. They name people without
  // saying which booking they are about (reach_recorded false), so an erasure finds them by recipient.
  await db.insertInto('notifications').values(notifications.map((n) => ({ ...n, created_at: new Date(now.getTime() - 3_600_000) }))).execute();

  await Promise.all(writes);
  // One picture at a time (rendering is CPU work; all come from the cache once made), then stored at once.
  const photoBytes: Buffer[] = [];
  for (const photo of photos) photoBytes.push(await demoCarPhoto(photo.car, photo.angle));
  await Promise.all(photos.map((photo, i) => store.put(photo.key, photoBytes[i]!)));
  // A server seeds once its job queue has started: one sweep gives every car its conversion job,
  // and the photos get their widths and formats in the background. `npm run db:seed` has no
  // queue; the sweep's schedule converts them once a server runs.
  if (!ctx.jobs.detached) await enqueuePhotoSweep(ctx, { db, now });
  return cars.map((c) => ({ id: c.id, car_username: c.car_username, owner: c.owner, city: c.city, price: c.model.price, verification_status: c.verification_status as string }));
}

/**
 * The money of the paid demo bookings, as a payment through the sandbox leaves it: the sandbox's
 * successful charge (a payments row with the booking's reference, so the sandbox can refund it),
 * the charge and its shares in the ledger at the moment it was paid, and each payout marked paid
 * as a ledger payout by the administrator (docs/decisions/039-one-ledger.md).
 */
async function recordDemoMoney(db: Db, bookings: NewBooking[], adminId: string): Promise<void> {
  for (const b of bookings) {
    if (b.payment_status !== 'paid' || !b.payment_reference || !b.paid_at) continue;
    const paidAt = new Date(b.paid_at);
    const parties = { bookingId: b.id!, renterId: b.renter_id, hostId: b.owner_id };
    await db
      .insertInto('payments')
      .values({ reference: b.payment_reference, booking_id: b.id!, provider: 'sandbox', amount_cents: b.total_price_cents, status: 'success', message: 'Approved (demo)', created_at: paidAt, updated_at: paidAt })
      .execute();
    await ledger.recordTripCharge(db, parties, {
      reference: b.payment_reference,
      at: paidAt,
      breakdown: { totalCents: b.total_price_cents, serviceFeeCents: b.service_fee_cents, insuranceFeeCents: b.insurance_fee_cents ?? 0, hostEarningsCents: b.car_owner_earnings_cents },
    });
    if (b.payout_status === 'paid' && b.payout_at) {
      await ledger.recordPayout(db, parties, { amountCents: b.car_owner_earnings_cents, reference: b.payout_reference ?? null, at: new Date(b.payout_at), actorId: adminId });
    }
  }
}
