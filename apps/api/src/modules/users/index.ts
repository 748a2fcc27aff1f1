// The users module's front door: accounts, sign-in and sessions, profiles, verification, documents
// (an account's deletion is the data-protection module's). The only file other modules and the app import.
export { authenticate, pruneEndedAuthRecords, throttleKeysOf, type AuthRetention } from './auth.service';
export { applyCorrection, findUser, findUserIn, makeHost, recordCompletedTrip, recordHostRating } from './users.service';
export type { UserRef } from './users.events';
export { usersRoutes } from './users.routes';
