// Pure code both the API and the web app import: schemas, rules and constants.
export * from './constants';
export * from './limits';
export * from './text';
export * from './api';
export * from './roles';
export * from './passwords';
export * from './users';
export * from './verification';
export * from './notifications';
export * from './catalogues';
export * from './settings';
export * from './pricing';
export * from './booking-rules';
export * from './bookings';
export * from './cars';
export * from './reviews';
export * from './earnings';
