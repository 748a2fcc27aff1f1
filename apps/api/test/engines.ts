// Which API test files run on which database (issue 33; docs/decisions/072-api-suite-on-one-engine.md).
//
// With a PostgreSQL server (TEST_DATABASE_URL), the whole API suite runs on it, and the embedded
// PGlite runs again only the files below: those whose behaviour depends on the engine. Without one,
// everything runs on PGlite. KAROO_TEST_BOTH_ENGINES=true runs everything on both, as before.
//
// A file belongs here when it branches on the engine (TEST_DB, testDbKind: engines.test.ts checks
// that every such file is listed), or when what it proves lives in SQL or in the database's own
// machinery, where the two engines could differ: migrations and their data moves, the job queue
// (pg-boss through PGlite's executeSql), failures and refusals of the database, time ranges and
// exclusion constraints, advisory locks, append-only triggers, the browse index's change feed,
// erasure's reading of information_schema, and the money's invariants over random sequences. The
// journeys themselves run on PGlite end to end (the e2e servers use the embedded default).
export const ENGINE_DEPENDENT_FILES = [
  'account-deletion',
  'admin-overview',
  'booking-create',
  'booking-machine.property',
  'browse-index',
  'browse-index-refresh',
  'database-failures',
  'database-refusal',
  'fee-waivers',
  'job-queue',
  'ledger-invariants.property',
  'ledger-migration',
  'migrations',
  'module-boundaries',
  'one-charge-per-booking',
  'one-session-guard',
  'operations',
  'payouts',
  'privacy-data',
  'prune',
  'refund-lifecycle',
  'register',
  'seed-ledger',
  'start-up',
  'test-clock-env',
  'time-ranges',
  'traffic-fines',
  'trip-changes',
  'trip-charges',
  'two-instances',
  'verification-seed',
] as const;

export type ApiSuitePlan = { postgres: 'all' | 'none'; pglite: 'all' | readonly string[] };

/** What each engine runs, from the environment. */
export function apiSuitePlan(env: { TEST_DATABASE_URL?: string; KAROO_TEST_BOTH_ENGINES?: string }): ApiSuitePlan {
  if (!env.TEST_DATABASE_URL) return { postgres: 'none', pglite: 'all' };
  if (env.KAROO_TEST_BOTH_ENGINES === 'true' || env.KAROO_TEST_BOTH_ENGINES === '1') return { postgres: 'all', pglite: 'all' };
  return { postgres: 'all', pglite: ENGINE_DEPENDENT_FILES };
}
