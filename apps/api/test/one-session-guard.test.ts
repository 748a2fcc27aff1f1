// The guard that makes PGlite's one-session deadlock loud on PostgreSQL (helpers/one-session-guard.ts):
// a query sent through the pool inside a transaction fails there; the same query through the
// transaction, or after the commit, does not.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDbKind, type TestApp } from './helpers';
import { QueryOutsideTransactionError } from './helpers/one-session-guard';

describe.runIf(testDbKind === 'postgres')('a query outside its transaction, on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('fails, where PGlite would wait for ever', async () => {
    await expect(t.db.transaction().execute(async () => sql`SELECT 1`.execute(t.db))).rejects.toBeInstanceOf(QueryOutsideTransactionError);
  });

  it('passes through the transaction, after the commit, and beside it from another call', async () => {
    const through = await t.db.transaction().execute(async (trx) => (await sql<{ n: number }>`SELECT 1 AS n`.execute(trx)).rows[0]!.n);
    expect(through).toBe(1);
    expect((await sql<{ n: number }>`SELECT 2 AS n`.execute(t.db)).rows[0]!.n).toBe(2);
    let release!: () => void;
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const held = t.db.transaction().execute(async (trx) => {
      await sql`SELECT 1`.execute(trx);
      const waiting = new Promise<void>((resolve) => (release = resolve));
      entered();
      await waiting;
    });
    await inside;
    expect((await sql<{ n: number }>`SELECT 3 AS n`.execute(t.db)).rows[0]!.n).toBe(3);
    release();
    await held;
  });
});
