// Catalogues of document 2 section 3: brands and models, colours, the base cities with their
// coordinates, features, car types and the browse filter values. The seed's lists were "not
// shown"; these are the South African market's real ones, in the sizes the seed gives.

export interface Brand {
  name: string;
  /** Empty for the free-text brands (Bike, Trailer): the model is typed in. */
  models: readonly string[];
  isFreeTextModel?: boolean;
}

export const CAR_BRANDS: readonly Brand[] = [
  { name: 'Toyota', models: ['Corolla', 'Corolla Cross', 'Yaris', 'Starlet', 'Fortuner', 'Hilux', 'RAV4', 'Land Cruiser', 'Rumion', 'Urban Cruiser', 'Quantum'] },
  { name: 'Volkswagen', models: ['Polo', 'Polo Vivo', 'Golf', 'T-Cross', 'Tiguan', 'Touareg', 'Amarok', 'Passat'] },
  { name: 'Ford', models: ['Ranger', 'EcoSport', 'Everest', 'Fiesta', 'Figo', 'Mustang', 'Territory', 'Tourneo'] },
  { name: 'Nissan', models: ['Almera', 'Magnite', 'Navara', 'X-Trail', 'Qashqai', 'Patrol', 'NP200'] },
  { name: 'Hyundai', models: ['i10', 'i20', 'Venue', 'Creta', 'Tucson', 'Santa Fe', 'Staria', 'Grand i10'] },
  { name: 'Kia', models: ['Picanto', 'Rio', 'Sonet', 'Seltos', 'Sportage', 'Sorento', 'Pegas', 'Carnival'] },
  { name: 'Suzuki', models: ['Swift', 'Celerio', 'Baleno', 'Dzire', 'Ertiga', 'Vitara Brezza', 'Jimny', 'Fronx'] },
  { name: 'Renault', models: ['Kwid', 'Triber', 'Kiger', 'Clio', 'Duster', 'Captur'] },
  { name: 'BMW', models: ['1 Series', '3 Series', '5 Series', 'X1', 'X3', 'X5', 'X7', 'M4', 'iX'] },
  { name: 'Mercedes-Benz', models: ['A-Class', 'C-Class', 'E-Class', 'S-Class', 'GLA', 'GLC', 'GLE', 'V-Class', 'G-Class'] },
  { name: 'Audi', models: ['A1', 'A3', 'A4', 'A6', 'Q2', 'Q3', 'Q5', 'Q7', 'Q8', 'RS3'] },
  { name: 'Mazda', models: ['Mazda2', 'Mazda3', 'CX-3', 'CX-30', 'CX-5', 'CX-60', 'BT-50', 'MX-5'] },
  { name: 'Honda', models: ['Amaze', 'Fit', 'Ballade', 'Civic', 'HR-V', 'CR-V', 'BR-V', 'WR-V'] },
  { name: 'Isuzu', models: ['D-Max', 'MU-X'] },
  { name: 'Mahindra', models: ['XUV300', 'XUV700', 'Scorpio-N', 'Pik Up', 'Thar', 'KUV100'] },
  { name: 'Haval', models: ['Jolion', 'H6', 'H6 GT', 'H2'] },
  { name: 'GWM', models: ['P-Series', 'Steed 5', 'Tank 300', 'Ora 03'] },
  { name: 'Chery', models: ['Tiggo 4 Pro', 'Tiggo 7 Pro', 'Tiggo 8 Pro'] },
  { name: 'Omoda', models: ['C5', 'C9', 'E5'] },
  { name: 'Jaecoo', models: ['J7', 'J8'] },
  { name: 'BYD', models: ['Dolphin', 'Atto 3', 'Seal', 'Sealion 6'] },
  { name: 'Opel', models: ['Corsa', 'Astra', 'Mokka', 'Crossland', 'Grandland'] },
  { name: 'Peugeot', models: ['208', '2008', '3008', '5008', 'Landtrek'] },
  { name: 'Citroën', models: ['C3', 'C3 Aircross', 'C5 Aircross', 'Berlingo'] },
  { name: 'Jeep', models: ['Renegade', 'Compass', 'Cherokee', 'Grand Cherokee', 'Wrangler', 'Gladiator'] },
  { name: 'Land Rover', models: ['Defender', 'Discovery', 'Discovery Sport', 'Range Rover', 'Range Rover Sport', 'Range Rover Evoque', 'Range Rover Velar'] },
  { name: 'Jaguar', models: ['XE', 'XF', 'F-Pace', 'E-Pace', 'I-Pace', 'F-Type'] },
  { name: 'Volvo', models: ['XC40', 'XC60', 'XC90', 'S60', 'V60', 'EX30'] },
  { name: 'Porsche', models: ['911', 'Cayenne', 'Macan', 'Panamera', 'Taycan'] },
  { name: 'Lexus', models: ['IS', 'ES', 'NX', 'RX', 'LX', 'UX'] },
  { name: 'Mitsubishi', models: ['ASX', 'Eclipse Cross', 'Outlander', 'Pajero Sport', 'Triton', 'Xpander'] },
  { name: 'Subaru', models: ['Impreza', 'XV', 'Forester', 'Outback', 'WRX', 'BRZ'] },
  { name: 'Fiat', models: ['500', 'Panda', 'Tipo', 'Doblo'] },
  { name: 'Alfa Romeo', models: ['Giulia', 'Stelvio', 'Tonale'] },
  { name: 'MINI', models: ['Cooper', 'Cooper S', 'Countryman', 'Clubman', 'Convertible'] },
  { name: 'Datsun', models: ['Go', 'Go+'] },
  { name: 'Tata', models: ['Indica', 'Bolt', 'Xenon'] },
  { name: 'Proton', models: ['Saga', 'X50', 'X70'] },
  { name: 'BAIC', models: ['Beijing X55', 'B40'] },
  { name: 'JAC', models: ['T8', 'T9', 'S3'] },
  { name: 'Chevrolet', models: ['Spark', 'Aveo', 'Cruze', 'Trailblazer', 'Utility', 'Captiva'] },
  { name: 'Dodge', models: ['Journey', 'Durango', 'Challenger'] },
  { name: 'SsangYong', models: ['Tivoli', 'Korando', 'Rexton', 'Musso'] },
  { name: 'Infiniti', models: ['Q30', 'Q50', 'QX50', 'QX80'] },
  { name: 'Maserati', models: ['Ghibli', 'Levante', 'Grecale', 'MC20'] },
  { name: 'Ferrari', models: ['Roma', 'Portofino', '296 GTB', 'F8 Tributo', 'Purosangue'] },
  { name: 'Lamborghini', models: ['Huracán', 'Urus', 'Revuelto'] },
  { name: 'Bentley', models: ['Continental GT', 'Bentayga', 'Flying Spur'] },
  { name: 'Rolls-Royce', models: ['Ghost', 'Cullinan', 'Phantom', 'Spectre'] },
  { name: 'Aston Martin', models: ['Vantage', 'DB12', 'DBX'] },
  { name: 'McLaren', models: ['Artura', '750S', 'GT'] },
  { name: 'Tesla', models: ['Model 3', 'Model Y', 'Model S', 'Model X'] },
  { name: 'Foton', models: ['Tunland', 'View'] },
  { name: 'Bike', models: [], isFreeTextModel: true },
  { name: 'Trailer', models: [], isFreeTextModel: true },
];

export const CAR_MAKES: readonly string[] = CAR_BRANDS.map((b) => b.name);

export function modelsOfMake(make: string): readonly string[] {
  return CAR_BRANDS.find((b) => b.name.toLowerCase() === make.trim().toLowerCase())?.models ?? [];
}

export function isFreeTextModelMake(make: string): boolean {
  return !!CAR_BRANDS.find((b) => b.name.toLowerCase() === make.trim().toLowerCase())?.isFreeTextModel;
}

/** The 21 colours, each with a swatch used by the car photos and the colour picker. */
export const CAR_COLOURS: readonly { name: string; hex: string }[] = [
  { name: 'White', hex: '#f4f5f7' },
  { name: 'Black', hex: '#1c1d21' },
  { name: 'Silver', hex: '#c0c4ca' },
  { name: 'Grey', hex: '#6b7078' },
  { name: 'Red', hex: '#c62828' },
  { name: 'Blue', hex: '#1e5bb8' },
  { name: 'Navy Blue', hex: '#1b2a4a' },
  { name: 'Green', hex: '#2e7d32' },
  { name: 'Dark Green', hex: '#1b4332' },
  { name: 'Yellow', hex: '#f2c230' },
  { name: 'Orange', hex: '#ef6c00' },
  { name: 'Brown', hex: '#6d4c41' },
  { name: 'Beige', hex: '#d8c8a8' },
  { name: 'Gold', hex: '#c9a227' },
  { name: 'Maroon', hex: '#6a1b29' },
  { name: 'Purple', hex: '#6a3fa0' },
  { name: 'Pink', hex: '#e07aa0' },
  { name: 'Champagne', hex: '#e6d3b3' },
  { name: 'Bronze', hex: '#a0692e' },
  { name: 'Burgundy', hex: '#800020' },
  { name: 'Turquoise', hex: '#1fa2a0' },
];

export function colourHex(name: string): string {
  return CAR_COLOURS.find((c) => c.name.toLowerCase() === name.trim().toLowerCase())?.hex ?? '#8a9099';
}

export { BASE_CITIES, OTHER_CITY, PICKUP_CITY_CHOICES, findBaseCity } from './cities';

/** The 16 features of the list-a-car wizard; they include every browse filter feature. */
export const CAR_FEATURES = [
  'Air Conditioning',
  'Climate Control',
  'Bluetooth',
  'GPS Navigation',
  'Cruise Control',
  'Leather Seats',
  'Heated Seats',
  'Sunroof',
  'Backup Camera',
  'Parking Sensors',
  'USB Charging',
  'Apple CarPlay',
  'Android Auto',
  'Premium Sound',
  'Keyless Entry',
  'Lane Assist',
] as const;

/** The 10 features of the browse filter panel (document 2 section 3). */
export const BROWSE_FEATURES = [
  'Bluetooth',
  'GPS Navigation',
  'Backup Camera',
  'Sunroof',
  'Leather Seats',
  'Climate Control',
  'USB Charging',
  'Android Auto',
  'Apple CarPlay',
  'Heated Seats',
] as const;

/** The admin car creator's 16 features (document 3 section 9). */
export const ADMIN_CREATOR_FEATURES = [
  'Air Conditioning',
  'Bluetooth',
  'GPS Navigation',
  'Cruise Control',
  'Leather Seats',
  'Heated Seats',
  'Sunroof',
  'Backup Camera',
  'Parking Sensors',
  'USB Charging',
  'WiFi Hotspot',
  'Premium Sound',
  'Apple CarPlay',
  'Android Auto',
  'Lane Assist',
  'Blind Spot Monitor',
] as const;

/** The 10 safety features of the wizard. */
export const SAFETY_FEATURES = [
  'ABS Brakes',
  'Airbags',
  'Traction Control',
  'Stability Control',
  'Emergency Braking',
  'Lane Departure Warning',
  'Blind Spot Monitoring',
  'Tyre Pressure Monitoring',
  'ISOFIX Child Seat Anchors',
  'Anti-theft Tracker',
] as const;

/** Canonical spelling of a feature typed in any case; unknown features are kept as typed. */
export function canonicalFeature(feature: string): string {
  const value = feature.trim();
  const all: readonly string[] = [...CAR_FEATURES, ...ADMIN_CREATOR_FEATURES, ...SAFETY_FEATURES];
  return all.find((f) => f.toLowerCase() === value.toLowerCase()) ?? value;
}

/** The 16 car types of the wizard. */
export const CAR_TYPES = [
  'Sedan',
  'Hatchback',
  'SUV',
  'Crossover',
  'Coupe',
  'Convertible',
  'Wagon',
  'Pickup Truck',
  'Van',
  'Minivan',
  'Sports Car',
  'Luxury Car',
  'Electric Vehicle',
  'Hybrid',
  'Trailer',
  'Bike',
] as const;
export type CarType = (typeof CAR_TYPES)[number];

/** The browse panel's vehicle types. */
export const BROWSE_TYPES = ['Economy', 'Compact', 'Sedan', 'SUV', 'Hatchback', 'Luxury'] as const;
export type BrowseType = (typeof BROWSE_TYPES)[number];

/**
 * How a browse type selects cars (the seed names browse types that are not car types):
 * a car matches when its car_type is one of `carTypes`, or, where given, its daily price is at
 * most `maxDailyPrice` (Economy) or above `minDailyPriceAbove` (Luxury: the 'Premium' badge band).
 * Any wizard car type is also accepted as a filter value and matches that type exactly.
 */
export const BROWSE_TYPE_FILTERS: Record<BrowseType, { carTypes: readonly string[]; maxDailyPrice?: number; minDailyPriceAbove?: number }> = {
  Economy: { carTypes: [], maxDailyPrice: 500 },
  Compact: { carTypes: ['Hatchback', 'Coupe'] },
  Sedan: { carTypes: ['Sedan'] },
  SUV: { carTypes: ['SUV', 'Crossover'] },
  Hatchback: { carTypes: ['Hatchback'] },
  Luxury: { carTypes: ['Luxury Car', 'Sports Car', 'Convertible'], minDailyPriceAbove: 1000 },
};

export const WIZARD_TRANSMISSIONS = ['Automatic', 'Manual', 'CVT'] as const;
export const BROWSE_TRANSMISSIONS = ['Automatic', 'Manual'] as const;
export const FUEL_TYPES = ['Petrol', 'Diesel', 'Electric', 'Hybrid'] as const;

export const PICKUP_OPTION_TYPES = ['standard', 'airport', 'premium', 'business', 'mall'] as const;
export type PickupOptionType = (typeof PICKUP_OPTION_TYPES)[number];
export const DEFAULT_PICKUP_TIMES = ['09:00', '13:00', '17:00'] as const;

/**
 * Browse pickup-type filter. HOST_DELIVERY: the car offers a `premium` pickup option (the host
 * brings the car to the renter). PICKUP_POINT: the car offers a fixed place to collect it, that is
 * an option of type standard, airport, business or mall, or no options at all (collection at the
 * car's pickup location).
 */
export const PICKUP_TYPES = ['ALL', 'HOST_DELIVERY', 'PICKUP_POINT'] as const;
export type PickupType = (typeof PICKUP_TYPES)[number];
export const HOST_DELIVERY_OPTION_TYPES: readonly PickupOptionType[] = ['premium'];
export const PICKUP_POINT_OPTION_TYPES: readonly PickupOptionType[] = ['standard', 'airport', 'business', 'mall'];

export const CAR_SORTS = ['RELEVANCE', 'PRICE_LOW', 'PRICE_HIGH', 'DISTANCE'] as const;
export type CarSort = (typeof CAR_SORTS)[number];

/** Default car of the wizard (document 2 section 5). */
export const DEFAULT_NEW_CAR = { car_type: 'Sedan', transmission: 'Automatic', fuelType: 'Petrol', seats: 5, doors: 4 } as const;

/** What a car card's badge may say: each is a fact about the car, never a guess from its price (decision 056; carBadges). */
export const CAR_BADGES = ['Instant', 'Insured'] as const;
