// fast-check settings for the API's property tests (issue 33): a fixed number of runs, never a
// time budget (a budget runs fewer cases on a busy machine, weakening the test exactly when it
// should not), and a seed chosen per run and printed, so any run can be replayed:
//   FC_SEED=<seed> [FC_PATH=<path>] npx vitest run <file>
// fast-check's failure message names the seed and the shrunk path; FC_SEED and FC_PATH replay it.
import type { Parameters } from 'fast-check';

export function propertyRuns<T>(numRuns: number, label: string): Parameters<T> {
  const fromEnv = process.env.FC_SEED;
  const seed = fromEnv !== undefined && fromEnv !== '' ? Number(fromEnv) : (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
  if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer, not "${fromEnv}"`);
  console.log(`${label}: ${numRuns} runs, seed ${seed} (replay: FC_SEED=${seed})`);
  return { numRuns, seed, ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}) };
}
