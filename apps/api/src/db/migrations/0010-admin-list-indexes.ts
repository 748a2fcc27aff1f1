// The admin panel's user list is read newest first, a page at a time: an index in that order, over
// the users not deleted, lets a page be read without sorting the whole table.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX users_newest_idx ON users (created_at DESC, id DESC) WHERE deleted_at IS NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS users_newest_idx`.execute(db);
}
