// The plan of which engine runs which API test file (engines.ts) cannot forget a file whose
// behaviour depends on the engine: every file that branches on it must be in the list PGlite runs
// again beside a full PostgreSQL run, and every listed file must exist.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { apiSuitePlan, ENGINE_DEPENDENT_FILES } from './engines';

const here = path.dirname(fileURLToPath(import.meta.url));
const testFiles = readdirSync(here).filter((f) => f.endsWith('.test.ts'));
/** Reading the engine: the helpers' `testDbKind`, the project's TEST_DB, or PGlite by name. */
const BRANCHES_ON_ENGINE = /\btestDbKind\b|process\.env\.TEST_DB\b|\bPGlite\b/;

describe('which engine runs which API test file', () => {
  it('lists every file that branches on the engine', () => {
    const branching = testFiles.filter((f) => f !== 'engines.test.ts' && BRANCHES_ON_ENGINE.test(readFileSync(path.join(here, f), 'utf8'))).map((f) => f.replace(/\.test\.ts$/, ''));
    expect(branching.length).toBeGreaterThan(5);
    expect(branching.filter((f) => !(ENGINE_DEPENDENT_FILES as readonly string[]).includes(f))).toEqual([]);
  });

  it('lists only files that exist, once each, in order', () => {
    for (const f of ENGINE_DEPENDENT_FILES) expect(existsSync(path.join(here, `${f}.test.ts`)), f).toBe(true);
    expect([...ENGINE_DEPENDENT_FILES].sort()).toEqual([...ENGINE_DEPENDENT_FILES]);
    expect(new Set(ENGINE_DEPENDENT_FILES).size).toBe(ENGINE_DEPENDENT_FILES.length);
  });

  it('runs everything on PGlite without a PostgreSQL server, and everything on both when asked', () => {
    expect(apiSuitePlan({})).toEqual({ postgres: 'none', pglite: 'all' });
    expect(apiSuitePlan({ TEST_DATABASE_URL: 'postgres://x' })).toEqual({ postgres: 'all', pglite: ENGINE_DEPENDENT_FILES });
    expect(apiSuitePlan({ TEST_DATABASE_URL: 'postgres://x', KAROO_TEST_BOTH_ENGINES: 'true' })).toEqual({ postgres: 'all', pglite: 'all' });
  });
});
