// Which failures mean "the database cannot be reached right now" (a restart, a failover, a database
// refusing connections, a stalled network, a statement that ran past its timeout) rather than "this
// request is wrong": the error handler answers them 503 with Retry-After, the jobs log them as
// warnings and try again on their next run (docs/decisions/029-database-failures.md, 057).
// Classified by code: the SQLSTATE (and its severity) the server sent, or the socket's errno. Only
// node-postgres's own failures carry no code; those are known by the fixed words the driver starts
// them with, wherever they are in the chain of causes, and whatever a wrapper appended (pg-boss adds
// "(Queue: …, Worker: …)" to the message of an error it reports).

/** Socket errors from connecting to, or talking with, the database server. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EAI_AGAIN', 'ENOTFOUND', 'ECONNABORTED']);

/**
 * SQLSTATEs that say so whatever the statement: 57P01 admin_shutdown (pg_terminate_backend, a fast
 * shutdown), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or shutting down), 57P05
 * idle_session_timeout, 57014 query_canceled (statement_timeout), 25P03
 * idle_in_transaction_session_timeout, 53300 too_many_connections; and class 08, connection
 * exceptions.
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '57P05', '57014', '25P03', '53300']);

/**
 * SQLSTATEs that say so only as the server's FATAL answer to a new connection: 55000
 * object_not_in_prerequisite_state is what `ALTER DATABASE … ALLOW_CONNECTIONS false` answers
 * ("database … is not currently accepting connections"), and, as an ERROR inside a session, also
 * what a statement gets for a wrong order of things (currval before nextval): that one is the
 * request's.
 */
const FATAL_SQLSTATES = new Set(['55000']);

/** What node-postgres and its pool start their code-less failures with: a connection lost, not to be had, or not answering. */
const DRIVER_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

const MAX_DEPTH = 5;

function codeOf(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

function isUnavailableCode(error: Error): boolean {
  const code = codeOf(error);
  if (!code) return false;
  if (SOCKET_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  return FATAL_SQLSTATES.has(code) && (error as { severity?: unknown }).severity === 'FATAL';
}

function isDriverFailure(error: Error): boolean {
  // A SQLSTATE is the server's answer, never the driver's own words.
  if (codeOf(error)) return false;
  return DRIVER_MESSAGES.some((words) => error.message.startsWith(words));
}

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > MAX_DEPTH) return false;
  if (isUnavailableCode(error) || isDriverFailure(error)) return true;
  // Connecting to a host name with several addresses fails with one error per address.
  if (error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(error.cause, depth + 1);
}

/** Failures that took a timeout to notice (a stall): trying again at once would wait as long again. */
const TIMEOUT_MESSAGES = ['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout', 'Query read timeout'];

export function isDatabaseTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = codeOf(error);
  if (code) return code === '57014' || code === 'ETIMEDOUT';
  return TIMEOUT_MESSAGES.some((words) => error.message.startsWith(words));
}

/** What a client is told while the database is unavailable, and when to ask again. */
export const UNAVAILABLE_MESSAGE = 'The service is briefly unavailable; please try again in a moment.';
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
