import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { createQueryClient, retryDelay, shouldRetry } from './query-client';

describe('query defaults', () => {
  it('keeps data fresh and cached for 5 minutes', () => {
    const defaults = createQueryClient().getDefaultOptions().queries;
    expect(defaults?.staleTime).toBe(5 * 60 * 1000);
    expect(defaults?.gcTime).toBe(5 * 60 * 1000);
  });

  it('retries server and network failures 3 times, never 4xx answers', () => {
    const serverError = new ApiError('Down', { status: 503 });
    expect(shouldRetry(0, serverError)).toBe(true);
    expect(shouldRetry(2, serverError)).toBe(true);
    expect(shouldRetry(3, serverError)).toBe(false);
    expect(shouldRetry(0, new ApiError('Offline', { isNetworkError: true }))).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 429]) {
      expect(shouldRetry(0, new ApiError('No', { status }))).toBe(false);
    }
  });

  it('doubles the delay from 1 s and caps it at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it('reads the person’s policies again when the server says new terms must be accepted first', async () => {
    const client = createQueryClient();
    const key = ['privacy', 'policies', 'u1'];
    client.setQueryData(key, []);
    const fail = (error: ApiError) => client.getMutationCache().build(client, { mutationFn: () => Promise.reject(error) }).execute(undefined).catch(() => undefined);
    await fail(new ApiError('Taken', { status: 409 }));
    expect(client.getQueryState(key)?.isInvalidated).toBe(false);
    await fail(new ApiError('We updated our Terms and Conditions.', { status: 409, errors: { policies: 'Accept the current Terms and Conditions first.' } }));
    expect(client.getQueryState(key)?.isInvalidated).toBe(true);
  });
});
