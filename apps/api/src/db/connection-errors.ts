// Which failures mean "the database cannot be reached right now" (a restart, a failover, a stalled
// network, a statement that ran past its timeout) rather than "this request is wrong": the error
// handler answers them 503 with Retry-After, the jobs log them as warnings and try again on their
// next run (docs/decisions/029-database-failures.md).

/** Socket errors from connecting to, or talking with, the database server. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);

/**
 * SQLSTATEs: 57P01 admin_shutdown (pg_terminate_backend, a fast shutdown), 57P02 crash_shutdown,
 * 57P03 cannot_connect_now (starting up or shutting down), 57014 query_canceled (statement_timeout),
 * 25P03 idle_in_transaction_session_timeout, 53300 too_many_connections; and class 08, connection
 * exceptions.
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '57014', '25P03', '53300']);

/** What node-postgres and its pool say when a connection is lost, cannot be had, or never answers. */
const DRIVER_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'Connection terminated',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 3) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (DRIVER_MESSAGES.includes(error.message)) return true;
  // Connecting to a host name with several addresses fails with one error per address.
  if (error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(error.cause, depth + 1);
}

/** Failures that took a timeout to notice (a stall): trying again at once would wait as long again. */
const TIMEOUT_MESSAGES = ['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout', 'Query read timeout'];

export function isDatabaseTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return code === '57014' || code === 'ETIMEDOUT' || TIMEOUT_MESSAGES.includes(error.message);
}

/** What a client is told while the database is unavailable, and when to ask again. */
export const UNAVAILABLE_MESSAGE = 'The service is briefly unavailable; please try again in a moment.';
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
