// One key, one fetcher, one shape (docs/decisions/014). Two hooks that cache different data under
// the same key break whichever screen loads second, and nothing fails until a user opens both
// screens in one visit: these tests catch it when the code is written.
import { DEFAULT_SETTINGS } from '@karoo/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '@/test/fixtures';
import { queryKeys } from './query-keys';
import { useSettings } from './queries/settings';

const sources = import.meta.glob<string>('/src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });
const appSources = Object.entries(sources).filter(([path]) => !/\.test\.tsx?$/.test(path) && !path.startsWith('/src/test/'));

/** Areas whose keys live in queryKeys: no feature may write them by hand. */
const SHARED_AREAS = Object.keys(queryKeys);
/** Calls that only name a key to refresh or drop it; they do not define what is cached there. */
const NOT_A_DEFINITION = /(invalidate|cancel|refetch|remove|reset)Queries\(\s*\{\s*$/;

/** Every hand-written `queryKey: ['area', ...]` that defines a query, with its file. */
function literalKeyDefinitions(): { path: string; key: string; area: string }[] {
  const found: { path: string; key: string; area: string }[] = [];
  for (const [path, text] of appSources) {
    for (const match of text.matchAll(/queryKey:\s*\[([^\]]*)\]/g)) {
      if (NOT_A_DEFINITION.test(text.slice(Math.max(0, match.index - 80), match.index))) continue;
      const area = /^\s*'([^']+)'/.exec(match[1] ?? '')?.[1] ?? '';
      found.push({ path, key: `[${(match[1] ?? '').trim()}]`, area });
    }
  }
  return found;
}

describe('query keys', () => {
  it('reads the app\u2019s sources (the scan below would pass vacuously otherwise)', () => {
    expect(appSources.length).toBeGreaterThan(50);
    expect(appSources.some(([path]) => path === '/src/lib/queries/settings.ts')).toBe(true);
  });

  it('settings, bookings, earnings, cars and reviews keys are only built by queryKeys, never written by hand in a feature', () => {
    const handWritten = literalKeyDefinitions().filter((d) => SHARED_AREAS.includes(d.area));
    expect(handWritten).toEqual([]);
  });

  it('a write refreshes a shared area through queryKeys too, never a hand-written key', () => {
    const handWritten = appSources.flatMap(([path, text]) =>
      [...text.matchAll(/(?:invalidate|cancel|refetch|remove|reset)Queries\(\s*\{\s*queryKey:\s*\[\s*'([^']+)'/g)]
        .filter((match) => SHARED_AREAS.includes(match[1] ?? ''))
        .map((match) => `${path}: ${match[0]}`),
    );
    expect(handWritten).toEqual([]);
  });

  it('no two files define the same hand-written key', () => {
    const byKey = new Map<string, string[]>();
    for (const { path, key } of literalKeyDefinitions()) byKey.set(key, [...(byKey.get(key) ?? []), path]);
    const twice = [...byKey.entries()].filter(([, paths]) => new Set(paths).size > 1);
    expect(twice).toEqual([]);
  });

  it('no two entries of queryKeys build the same key', () => {
    const built = [
      queryKeys.settings,
      queryKeys.bookings.list('mine'),
      queryKeys.bookings.list('all'),
      queryKeys.bookings.stats('mine'),
      queryKeys.bookings.stats('all'),
      queryKeys.earnings.summary(),
      queryKeys.earnings.profit('host_thabo'),
      queryKeys.cars.lists(),
      queryKeys.cars.list({}),
      queryKeys.cars.detail('host_thabo'),
      queryKeys.cars.count(),
      queryKeys.cars.owner('host_thabo'),
      queryKeys.reviews.car('host_thabo'),
      queryKeys.reviews.byUser('host_thabo'),
      queryKeys.reviews.stats(),
      queryKeys.reviews.stats('host_thabo'),
    ].map((key) => JSON.stringify(key));
    expect(new Set(built).size).toBe(built.length);
  });
});

describe('the one settings query', () => {
  function wrapper(client: QueryClient) {
    return ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
  }

  it('is the only fetcher of /settings: the booking panel and the wizard both read it', () => {
    const fetchers = appSources.filter(([, text]) => /apiClient\.get[^(]*\(\s*'\/settings'/.test(text)).map(([path]) => path);
    expect(fetchers).toEqual(['/src/lib/queries/settings.ts']);
    const readers = appSources.filter(([, text]) => /import \{[^}]*\buseSettings\b[^}]*\} from '@\/lib\/queries\/settings'/.test(text)).map(([path]) => path);
    expect(readers).toEqual(expect.arrayContaining(['/src/features/booking/components/booking-panel.tsx', '/src/features/list-car/components/become-host-page.tsx']));
  });

  it('gives every reader the whole shape (both key styles, defaults filled in), whoever loads it first', async () => {
    // A server that answers only part of the record (shape A only, one value changed).
    mockFetch({ 'GET /api/settings': ok({ platformCommission: 12, minCarValue: 60000 }) });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const first = renderHook(() => useSettings(), { wrapper: wrapper(client) });
    await waitFor(() => expect(first.result.current.isSuccess).toBe(true));

    const settings = first.result.current.data!;
    expect(settings).toMatchObject({ platformCommission: 12, commission_rate: 12, minCarValue: 60000, platform_fee: DEFAULT_SETTINGS.platform_fee });
    expect(Object.keys(settings).sort()).toEqual(Object.keys(DEFAULT_SETTINGS).sort());
    // What the cache holds under the key is that same shape, for the next screen that reads it.
    expect(client.getQueryData(queryKeys.settings)).toEqual(settings);
  });
});
