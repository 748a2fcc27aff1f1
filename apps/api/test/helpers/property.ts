// fast-check settings for the API's property tests (issue 33): a fixed number of runs, never a
// time budget (a budget runs fewer cases on a busy machine, weakening the test exactly when it
// should not), and a recorded seed per property, so `npm test` runs the same cases on every
// machine and never fails at random. The seed is printed; a failure names it and its path:
//   FC_SEED=<seed> [FC_PATH=<path>] npx vitest run <file>      replays a run
//   FC_SEED=random npx vitest run <file>                        explores new cases (a session's
//                                                               job before it records a new seed)
// A failing case is reported as found, not shrunk: shrinking a slow property (each case an app's
// worth of requests) outlasts the test's time and hides the message. FC_SHRINK=1 shrinks it when
// replaying.
import type { Parameters } from 'fast-check';

function seedOf(recorded: number): number {
  const fromEnv = process.env.FC_SEED;
  if (fromEnv === undefined || fromEnv === '') return recorded;
  if (fromEnv === 'random') return (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
  const seed = Number(fromEnv);
  if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer or "random", not "${fromEnv}"`);
  return seed;
}

export function propertyRuns<T>(numRuns: number, label: string, recordedSeed: number): Parameters<T> {
  const seed = seedOf(recordedSeed);
  console.log(`${label}: ${numRuns} runs, seed ${seed} (replay: FC_SEED=${seed}; explore: FC_SEED=random)`);
  return {
    numRuns,
    seed,
    endOnFailure: process.env.FC_SHRINK !== '1',
    ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
  };
}
