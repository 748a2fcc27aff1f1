// Which bookings earn money (a rule about bookings' states, so the bookings module's; the earnings
// module and every money figure import it from here): the one definition every money figure uses (host earnings, revenue,
// platform fees, a renter's spending, admin finance). Document 3 section 9: revenue counts bookings
// that are completed or paid. A paid booking is active or completed (it can no longer be cancelled
// or rejected), so nothing that was refunded or never paid is ever counted.
import { sql, type RawBuilder } from 'kysely';

/** The SQL condition, on the bookings table or an alias of it. */
export function earningBookingSql(alias?: string): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(alias ? `${alias}.${name}` : name);
  return sql<boolean>`(${column('status')} = 'completed' OR ${column('payment_status')} = 'paid')`;
}
