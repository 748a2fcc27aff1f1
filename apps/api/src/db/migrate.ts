// Runs the migrations. Kysely's PostgreSQL adapter takes an advisory lock, so several instances
// starting at once on one database migrate it exactly once.
import { sql, Migrator, type Kysely } from 'kysely';
import { migrations } from './migrations';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are schema-agnostic
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  await sql`CREATE EXTENSION IF NOT EXISTS btree_gist`.execute(db).catch(() => {
    // A server where the role may not create extensions must have it installed by an operator;
    // the migration that needs it will say so.
  });
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
