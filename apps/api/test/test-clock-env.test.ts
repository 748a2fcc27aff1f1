// KAROO_TEST_NOW: the end-to-end run's pinned start time, accepted only with NODE_ENV=test, and
// the offset clock it builds (starts there, then runs at real speed).
import { describe, expect, it } from 'vitest';
import { clockFromEnv, isTestClock, offsetClock, systemClock } from '../src/context';
import { loadEnv } from '../src/env';

const NOW = '2027-01-24T08:00:00+02:00';

describe('KAROO_TEST_NOW', () => {
  it('is accepted with NODE_ENV=test', () => {
    expect(loadEnv({ NODE_ENV: 'test', KAROO_TEST_NOW: NOW }).KAROO_TEST_NOW).toBe(NOW);
  });

  it('is refused, naming the variable, in production (the default) and development', () => {
    for (const NODE_ENV of ['production', 'development', undefined]) {
      expect(() => loadEnv({ NODE_ENV, KAROO_TEST_NOW: NOW })).toThrow(/KAROO_TEST_NOW: only allowed when NODE_ENV=test/);
    }
  });

  it('must be an instant with an offset', () => {
    for (const value of ['2027-01-24', '2027-01-24T08:00:00', 'tomorrow']) {
      expect(() => loadEnv({ NODE_ENV: 'test', KAROO_TEST_NOW: value })).toThrow(/KAROO_TEST_NOW: must be an ISO 8601 instant/);
    }
  });

  it('empty means not set, in any mode', () => {
    expect(loadEnv({ NODE_ENV: 'production', KAROO_TEST_NOW: '' }).KAROO_TEST_NOW).toBeUndefined();
    expect(clockFromEnv(loadEnv({ NODE_ENV: 'production' }))).toBe(systemClock);
  });
});

describe('offsetClock', () => {
  it('starts at the given instant and then runs with real time', () => {
    let real = Date.UTC(2026, 10, 30, 21, 59, 0);
    const clock = offsetClock(new Date(NOW), () => real);
    expect(clock.now().toISOString()).toBe('2027-01-24T06:00:00.000Z');
    real += 90_000;
    expect(clock.now().toISOString()).toBe('2027-01-24T06:01:30.000Z');
  });

  it('moves forward by hand and back to the run\'s own time (decision 070: the devtools test clock)', () => {
    let real = Date.UTC(2026, 10, 30, 21, 59, 0);
    const clock = offsetClock(new Date(NOW), () => real);
    expect(isTestClock(clock)).toBe(true);
    clock.advance(73 * 3_600_000);
    expect(clock.now().toISOString()).toBe('2027-01-27T07:00:00.000Z');
    real += 60_000;
    expect(clock.now().toISOString()).toBe('2027-01-27T07:01:00.000Z');
    clock.reset();
    expect(clock.now().toISOString()).toBe('2027-01-24T06:01:00.000Z');
    expect(isTestClock(systemClock)).toBe(false);
  });

  it('is what the server uses when KAROO_TEST_NOW is set', () => {
    const clock = clockFromEnv(loadEnv({ NODE_ENV: 'test', KAROO_TEST_NOW: NOW }));
    const drift = clock.now().getTime() - new Date(NOW).getTime();
    expect(drift).toBeGreaterThanOrEqual(0);
    expect(drift).toBeLessThan(5_000);
  });
});
