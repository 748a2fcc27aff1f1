// The embedded PGlite is one session: a query that code inside a transaction sends through the pool
// (`ctx.db` where it should use `trx`) waits for the transaction, which waits for the query, for
// ever. PostgreSQL's pool hands it a second connection and the bug passes unseen. Most API files
// run on PostgreSQL only (engines.ts), so on PostgreSQL this guard makes that bug loud: while a
// transaction's callback runs, a connection taken from the pool in the same chain of calls fails
// with the stack that asked for it (decision 072).
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { Kysely } from 'kysely';

interface OpenTransaction {
  open: boolean;
}

const inTransaction = new AsyncLocalStorage<OpenTransaction>();

export class QueryOutsideTransactionError extends Error {
  constructor() {
    super(
      'A query went to the pool while a transaction of the same call was open: on the embedded PGlite (one connection) it waits for ever. Use the transaction (trx) inside it, or send it after the commit.',
    );
    this.name = 'QueryOutsideTransactionError';
  }
}

/** Guards `db` (over `pool`) as described above; returns `db`. */
export function guardOneSession<DB>(db: Kysely<DB>, pool: pg.Pool): Kysely<DB> {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  (pool as { connect: unknown }).connect = (...args: unknown[]) => {
    if (inTransaction.getStore()?.open) {
      const error = new QueryOutsideTransactionError();
      if (typeof args[0] === 'function') return (args[0] as (e: Error) => void)(error);
      return Promise.reject(error);
    }
    return (connect as (...a: unknown[]) => unknown)(...args);
  };
  const transaction = db.transaction.bind(db);
  (db as { transaction: unknown }).transaction = () => {
    const builder = transaction();
    const execute = builder.execute.bind(builder);
    const guarded = <T>(callback: (trx: Parameters<Parameters<typeof execute>[0]>[0]) => Promise<T>) => {
      const state: OpenTransaction = { open: false };
      return inTransaction.run(state, () =>
        execute(async (trx) => {
          state.open = true;
          try {
            return await callback(trx);
          } finally {
            state.open = false;
          }
        }),
      );
    };
    (builder as { execute: unknown }).execute = guarded;
    return builder;
  };
  return db;
}
