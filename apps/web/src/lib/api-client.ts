// The one place that talks HTTP to the Karoo API: it adds the bearer token, applies the 10 s
// timeout, unwraps the { success, message, data, errors? } envelope into data or a typed ApiError,
// and handles 401 (session cleared, back to /login). Every feature's fetchers call through here.
import { REQUEST_TIMEOUT_MS } from '@karoo/shared';
import { clearSession, getToken } from './session-storage';

export const API_BASE = '/api';
const LOGIN_PATH = '/login';
/** Uploads of up to 10 MB need longer than a JSON call on a slow mobile connection. */
export const UPLOAD_TIMEOUT_MS = 60_000;

export const NETWORK_ERROR_MESSAGE = 'Unable to connect to the server. Please check your internet connection and try again.';
export const TIMEOUT_ERROR_MESSAGE = 'The server took too long to answer. Please try again.';

export class ApiError extends Error {
  readonly status: number;
  readonly errors: Record<string, string>;
  readonly isNetworkError: boolean;
  readonly isTimeout: boolean;
  /** The message the server wrote in its envelope; null when `message` is this client's own text. */
  readonly serverMessage: string | null;

  constructor(
    message: string,
    options: { status?: number; errors?: Record<string, string>; isNetworkError?: boolean; isTimeout?: boolean; serverMessage?: string | null } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = options.status ?? 0;
    this.errors = options.errors ?? {};
    this.isNetworkError = options.isNetworkError ?? false;
    this.isTimeout = options.isTimeout ?? false;
    this.serverMessage = options.serverMessage ?? null;
  }

  /** A 4xx answer: the request itself was refused, so repeating it will not help. */
  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * The text of a failure toast (docs/decisions/014): the server's own message when it sent one (a
 * 409 "dates taken", a 503 "maintenance", a 429 "try again at ..."), else the screen's fallback
 * from the documents' error catalogues. A 500 carries only the server's generic "something went
 * wrong", so the screen's fallback, which says what failed, is shown instead. Network failures
 * and timeouts have no server message either: the fallback again, unless the screen has its own
 * network notice.
 */
export function messageOf(error: unknown, fallback: string): string {
  if (!isApiError(error) || !error.serverMessage || error.status === 500) return fallback;
  return error.serverMessage;
}

export interface ApiResult<T> {
  data: T;
  message?: string;
  /** Paged lists; the car browse list adds total_exact and has_more (CarListMeta). */
  meta?: { total: number; page: number; limit: number; total_exact?: boolean; has_more?: boolean };
}

type UnauthorizedHandler = (options: { redirect: boolean }) => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/**
 * Registers what happens in the app after a 401 (the auth provider clears its state and the router
 * navigates). Returns an unregister function. Without a handler the browser is sent to /login.
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = null;
  };
}

function handleUnauthorized(): void {
  clearSession();
  const redirect = window.location.pathname !== LOGIN_PATH;
  if (unauthorizedHandler) unauthorizedHandler({ redirect });
  else if (redirect) window.location.assign(LOGIN_PATH);
}

/** Carries a request: the browser's fetch, or the server renderer's in-process call (entry-server.tsx). */
export type ApiTransport = (url: string, init: RequestInit) => Promise<Response>;
let transport: ApiTransport = (url, init) => fetch(url, init);

/** The server renderer answers the pages' requests in the API's own process (decision 044). */
export function setApiTransport(next: ApiTransport): void {
  transport = next;
}

function toUrl(path: string): string {
  if (/^https?:\/\//.test(path) || path.startsWith(`${API_BASE}/`)) return path;
  return `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain object is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  headers?: Record<string, string>;
  /** Cancels the request (TanStack Query passes one). */
  signal?: AbortSignal;
  timeoutMs?: number;
}

function withQuery(url: string, query: RequestOptions['query']): string {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${url}${url.includes('?') ? '&' : '?'}${text}` : url;
}

/** fetch with the token and the timeout; network failures and timeouts become ApiErrors. */
/** One request with the token and the timeout, its answer as it came (api-files.ts reads files with it). */
export async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body; // the browser sets the multipart boundary
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const onCallerAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onCallerAbort);

  try {
    return await transport(withQuery(toUrl(path), options.query), {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: controller.signal,
    });
  } catch (error) {
    if (timedOut) throw new ApiError(TIMEOUT_ERROR_MESSAGE, { isTimeout: true, isNetworkError: true });
    // Cancelled by the caller (e.g. a query that is no longer needed): not an error to show.
    if (options.signal?.aborted) throw error;
    throw new ApiError(NETWORK_ERROR_MESSAGE, { isNetworkError: true });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}

function fallbackMessage(status: number): string {
  if (status === 401) return 'Your session has expired. Please sign in again.';
  if (status === 403) return 'You do not have permission to do this.';
  if (status === 404) return 'Not found.';
  if (status === 429) return 'Too many requests. Please wait a moment and try again.';
  if (status >= 500) return 'Something went wrong on our side. Please try again.';
  return 'The request could not be completed.';
}

export interface Envelope {
  success?: boolean;
  message?: string;
  data?: unknown;
  errors?: Record<string, string>;
  meta?: ApiResult<unknown>['meta'];
}

export async function readEnvelope(response: Response): Promise<Envelope | null> {
  const text = await response.text().catch(() => '');
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Envelope) : null;
  } catch {
    return null;
  }
}

/** Throws the ApiError for a failed response (after clearing the session on 401). */
export function failure(response: Response, envelope: Envelope | null): ApiError {
  if (response.status === 401) handleUnauthorized();
  const status = response.ok ? 500 : response.status;
  const serverMessage = typeof envelope?.message === 'string' && envelope.message.trim() ? envelope.message : null;
  return new ApiError(serverMessage ?? fallbackMessage(status), { status, errors: envelope?.errors ?? {}, serverMessage });
}

/** Calls the API and returns the envelope's data and message, or throws an ApiError. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<ApiResult<T>> {
  const response = await send(path, options);
  const envelope = await readEnvelope(response);
  if (!response.ok || envelope?.success === false) throw failure(response, envelope);
  return {
    data: (envelope?.data ?? null) as T,
    ...(envelope?.message ? { message: envelope.message } : {}),
    ...(envelope?.meta ? { meta: envelope.meta } : {}),
  };
}

export const apiClient = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
