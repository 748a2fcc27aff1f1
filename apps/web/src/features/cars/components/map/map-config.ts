// The map view's settings (document 2 section 2, map view): styles, zoom limits, bounds, tiles.
export type MapStyle = 'map' | 'satellite' | 'hybrid';

export const MAP_STYLES: { id: MapStyle; label: string }[] = [
  { id: 'map', label: 'Map' },
  { id: 'satellite', label: 'Satellite' },
  { id: 'hybrid', label: 'Hybrid' },
];

export const MIN_ZOOM = 3;
export const MAX_ZOOM = 18;
export const INITIAL_ZOOM = 6;
/** Locating the renter zooms in to at least this. */
export const LOCATE_ZOOM = 12;
export const TILE_SIZE = 256;
/** Latitude is clamped to ±85 (Web Mercator has nothing beyond). */
export const MAX_BOUNDS: [[number, number], [number, number]] = [
  [-85, -180],
  [85, 180],
];
/** The middle of South Africa. */
export const DEFAULT_CENTER: [number, number] = [-29.0, 25.0];

export const STREET_TILES = {
  url: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
};
export const SATELLITE_TILES = {
  url: 'https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}',
  attribution: 'Imagery &copy; Esri, Maxar, Earthstar Geographics',
};
export const LABEL_TILES = {
  url: 'https://server.arcgisonline.com/ArcGIS/rest/services/Reference/World_Boundaries_and_Places/MapServer/tile/{z}/{y}/{x}',
  attribution: 'Labels &copy; Esri',
};
