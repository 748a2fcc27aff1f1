import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, jsonResponse, mockFetch, ok } from '@/test/fixtures';
import { apiClient, ApiError, messageOf, setUnauthorizedHandler } from './api-client';
import { uploadForm } from './api-files';

function headersOf(mock: ReturnType<typeof mockFetch>, call = 0): Record<string, string> {
  return (mock.mock.calls[call]?.[1]?.headers ?? {}) as Record<string, string>;
}

describe('api-client', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/profile');
  });
  afterEach(() => {
    setUnauthorizedHandler(null);
    vi.useRealTimers();
  });

  it('calls under /api with the bearer token from localStorage', async () => {
    window.localStorage.setItem('authToken', 'secret-token');
    const fetchMock = mockFetch({ 'GET /api/user/me': ok({ username: 'sipho' }) });

    await apiClient.get('/user/me');

    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/user/me');
    expect(headersOf(fetchMock).Authorization).toBe('Bearer secret-token');
  });

  it('sends no Authorization header when nobody is signed in, and JSON bodies as JSON', async () => {
    const fetchMock = mockFetch({ 'POST /api/user/login': ok({ token: 't' }) });

    await apiClient.post('/user/login', { username: 'sipho', password: 'x' });

    expect(headersOf(fetchMock).Authorization).toBeUndefined();
    expect(headersOf(fetchMock)['Content-Type']).toBe('application/json');
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe(JSON.stringify({ username: 'sipho', password: 'x' }));
  });

  it('unwraps the envelope into data and message', async () => {
    mockFetch({ 'POST /api/user/forgot-password': ok(null, 'Link sent') });

    const result = await apiClient.post('/user/forgot-password', { email: 'a@b.co' });

    expect(result).toEqual({ data: null, message: 'Link sent' });
  });

  it('turns a failure envelope into an ApiError with status, message and field errors', async () => {
    mockFetch({
      'POST /api/user/register': fail(409, 'Username is already taken', { username: 'Username is already taken' }),
    });

    const error = await apiClient.post('/user/register', {}).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      message: 'Username is already taken',
      errors: { username: 'Username is already taken' },
      isNetworkError: false,
      isTimeout: false,
    });
  });

  it('treats success:false as a failure even with a 200 status, and copes with a body that is not JSON', async () => {
    mockFetch({
      'GET /api/odd': jsonResponse({ success: false, message: 'Nope' }, 200),
      'GET /api/broken': new Response('<html>Bad gateway</html>', { status: 502 }),
    });

    await expect(apiClient.get('/odd')).rejects.toMatchObject({ message: 'Nope' });
    await expect(apiClient.get('/broken')).rejects.toMatchObject({
      status: 502,
      message: 'Something went wrong on our side. Please try again.',
    });
  });

  it('on 401 clears the saved session and asks the app to go to /login', async () => {
    window.localStorage.setItem('authToken', 'expired');
    window.localStorage.setItem('currentUser', '{"username":"sipho"}');
    window.localStorage.setItem('userData', '{}');
    window.localStorage.setItem('unrelated', 'kept');
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    mockFetch({ 'GET /api/notifications': fail(401, 'Your session has expired. Please sign in again.') });

    const error = await apiClient.get('/notifications').catch((e: unknown) => e);

    expect(error).toMatchObject({ status: 401, message: 'Your session has expired. Please sign in again.' });
    expect(window.localStorage.getItem('authToken')).toBeNull();
    expect(window.localStorage.getItem('currentUser')).toBeNull();
    expect(window.localStorage.getItem('userData')).toBeNull();
    expect(window.localStorage.getItem('unrelated')).toBe('kept');
    expect(handler).toHaveBeenCalledWith({ redirect: true });
  });

  it('on 401 while already on /login does not redirect again', async () => {
    window.history.replaceState(null, '', '/login');
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    mockFetch({ 'POST /api/user/login': fail(401, 'Invalid credentials') });

    await expect(apiClient.post('/user/login', {})).rejects.toMatchObject({ status: 401, message: 'Invalid credentials' });
    expect(handler).toHaveBeenCalledWith({ redirect: false });
  });

  it('without a registered handler, a 401 sends the browser to /login', async () => {
    const assign = vi.fn();
    const original = window.location;
    Object.defineProperty(window, 'location', { configurable: true, value: { ...original, pathname: '/profile', assign } });
    try {
      mockFetch({ 'GET /api/user/me': fail(401, 'Expired') });
      await apiClient.get('/user/me').catch(() => undefined);
      expect(assign).toHaveBeenCalledWith('/login');
    } finally {
      Object.defineProperty(window, 'location', { configurable: true, value: original });
    }
  });

  it('gives up after 10 seconds with a timeout error', async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        }),
    );
    vi.stubGlobal('fetch', fetchMock);

    const pending = apiClient.get('/slow').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(fetchMock.mock.calls[0]?.[1]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);

    const error = await pending;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ isTimeout: true, status: 0 });
  });

  it('reports an unreachable server as a network error', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));

    const error = await apiClient.get('/user/me').catch((e: unknown) => e);

    expect(error).toMatchObject({ isNetworkError: true, isTimeout: false, status: 0 });
  });

  it('uploads multipart form data without forcing a content type', async () => {
    window.localStorage.setItem('authToken', 'secret-token');
    const fetchMock = mockFetch({ 'POST /api/user/sipho/upload-document': ok({ documents: {} }) });
    const form = new FormData();
    form.append('type', 'id_document');
    form.append('document', new File(['%PDF-1.4'], 'id.pdf', { type: 'application/pdf' }));

    await uploadForm('/user/sipho/upload-document', form);

    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.body).toBe(form);
    expect(headersOf(fetchMock)['Content-Type']).toBeUndefined();
    expect(headersOf(fetchMock).Authorization).toBe('Bearer secret-token');
    expect([...(init?.body as FormData).keys()]).toEqual(['type', 'document']);
  });
});

describe('messageOf: the server\u2019s message, else the screen\u2019s fallback', () => {
  const FALLBACK = 'Failed to cancel the booking. Please try again.';
  const failureOf = async (response: Response) => {
    mockFetch({ 'PATCH /api/booking/b1/cancel': response });
    return apiClient.patch('/booking/b1/cancel', {}).catch((e: unknown) => e);
  };

  it.each([
    [409, 'Those dates are already booked.'],
    [503, 'Karoo is down for maintenance. Please try again later.'],
    [429, 'Too many attempts. Try again at 14:05.'],
    [400, 'Comment is required'],
  ])('a %i keeps the server\u2019s words', async (status, message) => {
    expect(messageOf(await failureOf(fail(status, message)), FALLBACK)).toBe(message);
  });

  it('falls back when the server sent no message, only its generic 500, or nothing at all', async () => {
    expect(messageOf(await failureOf(jsonResponse({ success: false }, 409)), FALLBACK)).toBe(FALLBACK);
    expect(messageOf(await failureOf(new Response('Bad gateway', { status: 502 })), FALLBACK)).toBe(FALLBACK);
    expect(messageOf(await failureOf(fail(500, 'Something went wrong on our side. Please try again.')), FALLBACK)).toBe(FALLBACK);
    expect(messageOf(new ApiError('Offline', { isNetworkError: true }), FALLBACK)).toBe(FALLBACK);
    expect(messageOf(new Error('boom'), FALLBACK)).toBe(FALLBACK);
    expect(messageOf(undefined, FALLBACK)).toBe(FALLBACK);
  });
});
