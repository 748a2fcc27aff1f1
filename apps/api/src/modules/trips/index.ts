// The trips module's front door (issue 21; docs/decisions/042-trip-records.md): check-in and
// check-out records with private photos, the comparison the host's Process Return shows, and
// disputes. The only file the app imports. It imports the bookings module (who sees a booking).
import './trips.tables';

export { tripsRoutes } from './trips.routes';
