// The modules the public pages draw with build no schema (decision 053): a schema is built when its
// module is evaluated, and brings zod with it, about 40 KB gzip of code a phone fetches and runs
// before a browse or car page is live. This follows their imports (type-only ones carry no code).
// `npm run size` checks the same on the build: no chunk of zod in the public routes' chunks.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

/** What the browse page, the car page and the landing page take from this package. */
const DRAWN_WITH = ['car-cards', 'car-photos', 'platform-settings', 'trip-charge-settings', 'trip-charges', 'trip-rules', 'pricing', 'limits', 'booking-rules', 'cancellation', 'time-ranges', 'catalogues', 'cities', 'zoned-date'];

/** The modules a module's code imports, as './name'. */
function codeImports(name: string): string[] {
  const source = readFileSync(path.join(here, `${name}.ts`), 'utf8');
  const found: string[] = [];
  for (const match of source.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+'(\.\/[^']+)';/gms)) {
    if (!match[2]) found.push(match[3]!.slice(2));
  }
  return found;
}

/** The chain of imports from `name` to ./zod, or null when its code never reaches it. */
function pathToZod(name: string, seen = new Set<string>()): string[] | null {
  if (name === 'zod') return ['zod'];
  if (seen.has(name)) return null;
  seen.add(name);
  for (const next of codeImports(name)) {
    const chain = pathToZod(next, seen);
    if (chain) return [name, ...chain];
  }
  return null;
}

describe('the modules the public pages draw with', () => {
  it.each(DRAWN_WITH)('%s builds no schema, directly or through its imports', (name) => {
    expect(pathToZod(name)).toBeNull();
  });

  it('the check sees a schema module for what it is', () => {
    expect(pathToZod('cars')).toEqual(['cars', 'zod']);
    expect(pathToZod('trip-rules-schema')?.at(-1)).toBe('zod');
  });
});
