// Test data and a fetch double for web tests: no test talks to a real server.
import type { User } from '@karoo/shared';
import { vi } from 'vitest';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    username: 'sipho',
    full_name: 'Sipho Nkosi',
    email: 'sipho@example.co.za',
    phone_number: '+27 82 555 0606',
    address: '48 Vilakazi St, Orlando West, Soweto',
    id_number: '9501015800086',
    bank_account: { account_number: '62098765432', bank_code: '250655' },
    role: 'customer',
    user_type: null,
    verification_status: 'verified',
    verification_notes: null,
    host_since: null,
    rating: null,
    total_trips: 0,
    created_at: '2025-05-19T08:00:00.000Z',
    updated_at: '2025-05-19T08:00:00.000Z',
    ...overrides,
  };
}

export function signIn(user: User, token = 'test-token') {
  window.localStorage.setItem('currentUser', JSON.stringify(user));
  window.localStorage.setItem('authToken', token);
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export const ok = (data: unknown, message?: string) => jsonResponse({ success: true, ...(message ? { message } : {}), data });
export const fail = (status: number, message: string, errors?: Record<string, string>) =>
  jsonResponse({ success: false, message, ...(errors ? { errors } : {}) }, status);

type Handler = (request: { url: string; method: string; init: RequestInit | undefined }) => Response | Promise<Response>;

/**
 * Replaces fetch with a router of "METHOD /path" handlers (path without the query string).
 * Unmatched calls answer 404 in the API's envelope. Returns the mock to inspect calls.
 */
export function mockFetch(handlers: Record<string, Handler | Response> = {}) {
  const mock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0];
    const handler = handlers[`${method} ${path}`];
    if (!handler) return fail(404, `No handler for ${method} ${path}`);
    return handler instanceof Response ? handler.clone() : handler({ url, method, init });
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}
