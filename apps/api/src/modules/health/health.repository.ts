// SQL for the health check: one round trip to the database.
import { sql } from 'kysely';
import type { Db } from '../../db/connection';

export async function pingDatabase(db: Db): Promise<void> {
  await sql`SELECT 1`.execute(db);
}
