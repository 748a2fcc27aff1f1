// Assertions on the api.md envelope.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { ErrorResponse, SuccessResponse } from '@karoo/shared';

/** Asserts a failure envelope `{ success: false, message, errors? }` with the status, and returns it. */
export function expectError(res: LightMyRequestResponse, status: number, message?: string | RegExp): ErrorResponse {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json<ErrorResponse>();
  expect(body.success).toBe(false);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(body).not.toHaveProperty('stack');
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
  return body;
}

/** Asserts a success envelope with the status (200 unless told), and returns its data. */
export function expectOk<T = unknown>(res: LightMyRequestResponse, status = 200): T {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json<SuccessResponse<T>>();
  expect(body.success).toBe(true);
  return body.data;
}
