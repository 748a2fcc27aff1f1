// Pure code both the API and the web app import: schemas, rules and constants.
export * from './constants';
export * from './api';
export * from './roles';
export * from './passwords';
export * from './users';
export * from './verification';
export * from './notifications';
