// The base cities, in a module of their own: the web app's landing page lists them, and this keeps
// the rest of the catalogues (brands, colours, features) out of its first download.
/** The 14 South African base cities with fixed coordinates (decisions.md section 4), then 'Other'. */
export const BASE_CITIES: readonly { name: string; province: string; latitude: number; longitude: number }[] = [
  { name: 'Johannesburg', province: 'Gauteng', latitude: -26.2041, longitude: 28.0473 },
  { name: 'Cape Town', province: 'Western Cape', latitude: -33.9249, longitude: 18.4241 },
  { name: 'Durban', province: 'KwaZulu-Natal', latitude: -29.8587, longitude: 31.0218 },
  { name: 'Pretoria', province: 'Gauteng', latitude: -25.7479, longitude: 28.2293 },
  { name: 'Gqeberha', province: 'Eastern Cape', latitude: -33.9608, longitude: 25.6022 },
  { name: 'Bloemfontein', province: 'Free State', latitude: -29.0852, longitude: 26.1596 },
  { name: 'East London', province: 'Eastern Cape', latitude: -33.0153, longitude: 27.9116 },
  { name: 'Polokwane', province: 'Limpopo', latitude: -23.9045, longitude: 29.4689 },
  { name: 'Mbombela', province: 'Mpumalanga', latitude: -25.4658, longitude: 30.9853 },
  { name: 'Kimberley', province: 'Northern Cape', latitude: -28.7282, longitude: 24.7499 },
  { name: 'Rustenburg', province: 'North West', latitude: -25.6676, longitude: 27.2421 },
  { name: 'Pietermaritzburg', province: 'KwaZulu-Natal', latitude: -29.6006, longitude: 30.3794 },
  { name: 'George', province: 'Western Cape', latitude: -33.963, longitude: 22.4617 },
  { name: 'Stellenbosch', province: 'Western Cape', latitude: -33.9321, longitude: 18.8602 },
];
export const OTHER_CITY = 'Other';
export const PICKUP_CITY_CHOICES: readonly string[] = [...BASE_CITIES.map((c) => c.name), OTHER_CITY];

/** The base city a pickup location names (case-insensitive), if any. */
export function findBaseCity(location: string | null | undefined) {
  const value = (location ?? '').trim().toLowerCase();
  return BASE_CITIES.find((c) => c.name.toLowerCase() === value);
}
