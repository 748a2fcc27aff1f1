// The API Connection Test (document 3, decisions.md section 10): six checks run in order. The
// first four go through the shared api client as the signed-in admin. The two login tests sign in
// with the demo accounts the server offers (GET /devtools/login-tests) and call fetch directly, so
// the admin's own session is never replaced; each test session is revoked straight away.
import { LOGIN_TEST_SKIPPED, REQUEST_TIMEOUT_MS, type LoginTestAccount, type LoginTests, type User } from '@karoo/shared';
import { API_BASE, apiClient, isApiError } from '@/lib/api-client';

export type TestOutcome = 'passed' | 'failed' | 'skipped';

export interface ApiTestResult {
  name: string;
  outcome: TestOutcome;
  /** The HTTP status, or null when no answer came (network failure, skipped). */
  status: number | null;
  durationMs: number;
  detail: string;
}

export const API_TEST_NAMES = ['Health check', 'Car list', 'Cars call (admin)', 'Users call', 'Login test 1', 'Login test 2'] as const;

const now = () => performance.now();
const elapsed = (start: number) => Math.round(now() - start);

/**
 * Runs one check through the api client. The client answers data (it unwraps the envelope), so a
 * success is recorded as 200, the status every one of these GET reads answers with.
 */
async function check(name: string, call: () => Promise<string>): Promise<ApiTestResult> {
  const start = now();
  try {
    const detail = await call();
    return { name, outcome: 'passed', status: 200, durationMs: elapsed(start), detail };
  } catch (error) {
    return {
      name,
      outcome: 'failed',
      status: isApiError(error) && error.status ? error.status : null,
      durationMs: elapsed(start),
      detail: error instanceof Error ? error.message : 'Unknown error',
    };
  }
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

async function postJson(path: string, body: unknown, token?: string): Promise<Response> {
  return fetch(`${API_BASE}${path}`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
}

async function readJson(response: Response): Promise<{ message?: string; data?: { token?: string; user?: Pick<User, 'username' | 'role'> } } | null> {
  try {
    return (await response.json()) as never;
  } catch {
    return null;
  }
}

/** Signs in as a demo account outside the app's session, then signs that session out again. */
export async function runLoginTest(name: string, account: LoginTestAccount): Promise<ApiTestResult> {
  const start = now();
  try {
    const response = await postJson('/user/login', { username: account.username, password: account.password });
    const body = await readJson(response);
    const token = body?.data?.token;
    if (!response.ok || !token) {
      return { name, outcome: 'failed', status: response.status, durationMs: elapsed(start), detail: body?.message ?? `${account.label} as ${account.username} failed` };
    }
    const durationMs = elapsed(start);
    const logout = await postJson('/user/logout', {}, token).catch(() => null);
    const signedIn = `${account.label}: signed in as ${account.username} (${body?.data?.user?.role ?? 'user'})`;
    if (!logout?.ok) return { name, outcome: 'failed', status: response.status, durationMs, detail: `${signedIn}, but the test session could not be signed out` };
    return { name, outcome: 'passed', status: response.status, durationMs, detail: `${signedIn}; test session signed out` };
  } catch {
    return { name, outcome: 'failed', status: null, durationMs: elapsed(start), detail: `${account.label}: no answer from the server` };
  }
}

async function loginTests(): Promise<ApiTestResult[]> {
  const [first, second] = [API_TEST_NAMES[4], API_TEST_NAMES[5]];
  let offer: LoginTests;
  try {
    offer = (await apiClient.get<LoginTests>('/devtools/login-tests')).data;
  } catch (error) {
    const status = isApiError(error) && error.status ? error.status : null;
    const detail = `Could not read the test accounts: ${error instanceof Error ? error.message : 'unknown error'}`;
    return [first, second].map((name) => ({ name, outcome: 'failed' as const, status, durationMs: 0, detail }));
  }
  if (!offer.available) {
    return [first, second].map((name) => ({ name, outcome: 'skipped' as const, status: null, durationMs: 0, detail: `${LOGIN_TEST_SKIPPED} (${offer.reason})` }));
  }
  const results: ApiTestResult[] = [];
  for (const [index, name] of [first, second].entries()) {
    const account = offer.accounts[index];
    results.push(account ? await runLoginTest(name, account) : { name, outcome: 'skipped', status: null, durationMs: 0, detail: LOGIN_TEST_SKIPPED });
  }
  return results;
}

/** Runs every test in order; `onResult` reports each one as it finishes. */
export async function runApiTests(onResult: (result: ApiTestResult) => void): Promise<ApiTestResult[]> {
  const results: ApiTestResult[] = [];
  const record = (result: ApiTestResult) => {
    results.push(result);
    onResult(result);
  };
  record(
    await check(API_TEST_NAMES[0], async () => {
      const { data } = await apiClient.get<{ status: string; db: string }>('/health');
      return `Server ${data.status}, database ${data.db}`;
    }),
  );
  record(
    await check(API_TEST_NAMES[1], async () => {
      const { data, meta } = await apiClient.get<unknown[]>('/car/getCarList', { query: { limit: 5 } });
      return `${plural(data.length, 'car')} received${meta ? ` of ${meta.total} listed` : ''}`;
    }),
  );
  record(
    await check(API_TEST_NAMES[2], async () => {
      const { data, meta } = await apiClient.get<unknown[]>('/car/getCarList', { query: { includeUnverified: true, limit: 5 } });
      return `${plural(data.length, 'car')} received${meta ? ` of ${meta.total}, unverified included` : ''}`;
    }),
  );
  record(
    await check(API_TEST_NAMES[3], async () => {
      const { data } = await apiClient.get<unknown[]>('/user/getList');
      return `${plural(data.length, 'user')} received`;
    }),
  );
  for (const result of await loginTests()) record(result);
  return results;
}
