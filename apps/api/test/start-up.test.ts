// What a restart on existing data does before it listens (issue 32, decision 057: a killed instance
// took about 20 s to serve again). The migrations step, on a database that has every migration, is
// two reads: not the migrator's bookkeeping tables, its lock and its listing (about 4 s of a restart
// on a loaded machine, measured by bench/start-up.ts). A database that lacks one still migrates.
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/connection';
import { migrateToLatest } from '../src/db/migrate';
import type { Database } from '../src/db/schema';
import { openTestDatabase } from './helpers';

describe('the migrations step of a restart', () => {
  let handle: DatabaseHandle;
  /** The file's database, with every statement it is sent counted. */
  let counted: Kysely<Database>;
  const statements: string[] = [];

  beforeAll(async () => {
    handle = await openTestDatabase();
    const pool = handle.pool;
    counted = new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      log: (event) => {
        if (event.level === 'query') statements.push(event.query.sql);
      },
    });
  });
  afterAll(async () => {
    // The pool is the handle's: closed with it.
    await handle?.close();
  });

  it('on a database with every migration: nothing applied, in two reads and no lock', async () => {
    statements.length = 0;
    expect(await migrateToLatest(counted)).toEqual([]);
    expect(statements).toHaveLength(2);
    expect(statements.join('\n')).not.toMatch(/pg_advisory|CREATE|LOCK/i);
  });

  it('on a database that lacks a migration: the migrator runs it', async () => {
    const [last] = (await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1`.execute(handle.db)).rows;
    // Forget that the newest ran (its work stays): the migrator must be asked. Its re-run of that
    // migration may fail on the work already there (in a transaction, rolled back); the row is put back.
    await sql`DELETE FROM kysely_migration WHERE name = ${last!.name}`.execute(handle.db);
    statements.length = 0;
    await migrateToLatest(counted).catch(() => []);
    expect(statements.some((text) => /kysely_migration_lock|pg_advisory/i.test(text)), 'the migrator was asked').toBe(true);
    await sql`INSERT INTO kysely_migration (name, timestamp) VALUES (${last!.name}, ${new Date().toISOString()}) ON CONFLICT DO NOTHING`.execute(handle.db);
    statements.length = 0;
    expect(await migrateToLatest(counted)).toEqual([]);
    expect(statements).toHaveLength(2);
  });
});
