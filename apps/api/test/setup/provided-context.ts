// Values the global setups hand to the test files (vitest provide/inject).
export {};

declare module 'vitest' {
  export interface ProvidedContext {
    /** api-pglite: a gzipped data directory of one migrated PGlite database; each file clones it. */
    pgliteTemplatePath: string;
    /** api-postgres: a folder where each file records its database, so teardown can drop leftovers. */
    postgresRunDir: string;
    /** api-postgres: the run's template database (migrated, job queue installed); each file copies it. */
    postgresTemplate: string;
  }
}
