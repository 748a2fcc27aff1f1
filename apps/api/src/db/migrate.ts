// Runs the migrations. Kysely's PostgreSQL adapter takes an advisory lock, so several instances
// starting at once on one database migrate it exactly once.
import { sql, Migrator, type Kysely } from 'kysely';
import { migrations } from './migrations';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are schema-agnostic
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // A restart on a database that has every migration (the usual start): two reads, not the
  // migrator's dozen statements and its lock (decision 057: about 4 s of a loaded machine's restart).
  if (await hasEveryMigration(db)) return [];
  // btree_gist: the no-double-booking constraint; pg_trgm: the browse search's indexes.
  for (const extension of ['btree_gist', 'pg_trgm']) {
    await sql`CREATE EXTENSION IF NOT EXISTS ${sql.raw(extension)}`.execute(db).catch(() => {
      // A server where the role may not create extensions must have them installed by an
      // operator; the migration that needs one will say so.
    });
  }
  // Kysely looks for its bookkeeping tables in every schema unless told which one; with several
  // schemas in one database (one per test file, or another app's), it would find another schema's
  // tables and skip creating its own. Pin them to the schema the migrations create tables in.
  const { rows } = await sql<{ schema: string | null }>`SELECT current_schema() AS schema`.execute(db);
  const schema = rows[0]?.schema;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Whether the schema's bookkeeping names exactly the migrations this code has: then there is nothing
 * to run. Anything else (a first start, a new migration, a migration this code does not know) goes
 * through the migrator, which runs what is missing or says what is wrong.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are schema-agnostic
async function hasEveryMigration(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ schema: string | null; table: string | null }>`
    SELECT current_schema() AS schema, to_regclass(quote_ident(current_schema()) || '.kysely_migration')::text AS table`.execute(db);
  const { schema, table } = rows[0] ?? {};
  if (!schema || !table) return false;
  const applied = await sql<{ name: string }>`SELECT name FROM ${sql.id(schema, 'kysely_migration')}`.execute(db);
  const known = Object.keys(migrations);
  const names = new Set(applied.rows.map((row) => row.name));
  return names.size === known.length && known.every((name) => names.has(name));
}
