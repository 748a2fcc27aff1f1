// The single error handler: every failure leaves as { success: false, message, errors? } with the
// right status. Anything unexpected is logged with its request id and answered with a generic 500.
// Values the schemas let through but the database refuses (SQLSTATE class 22, data exceptions, and
// check constraints) and broken multipart bodies are the client's fault: 400, never 500
// (docs/decisions/012-hostile-input.md). A database that cannot be reached right now (lost or
// refused connections, a stall past the timeouts) is nobody's bug: 503 with Retry-After, logged
// as a warning (docs/decisions/029-database-failures.md).
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../db/connection-errors';
import { AppError } from '../lib/app-error';

const GENERIC_500 = 'Something went wrong on our side. Please try again.';

function fieldErrors(issues: { instancePath?: string; message?: string; params?: unknown }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.') || 'body';
    if (!(key in errors)) errors[key] = issue.message ?? 'Invalid value';
  }
  return errors;
}

const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; JSON was expected.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'This content type is not supported here.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body length does not match its Content-Length.',
  FST_REQ_FILE_TOO_LARGE: 'File size must be less than 10MB',
  FST_FILES_LIMIT: 'Only one file may be uploaded at a time.',
  FST_PARTS_LIMIT: 'Too many form fields.',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'The request must be multipart/form-data with a file.',
  FST_PROTO_VIOLATION: 'A form field name is not allowed.',
  FST_INVALID_JSON_FIELD_ERROR: 'A form field is not valid JSON.',
  FST_MP_PREMATURE_CLOSE: 'The upload ended before it was complete. Please try again.',
};

/** PostgreSQL data exceptions (class 22) worth their own words; the rest of the class reads DATA_ERROR. */
const DATA_ERROR = 'A value in the request is not valid.';
const DATA_ERROR_MESSAGES: Record<string, string> = {
  '22001': 'A value in the request is too long.',
  '22003': 'A number in the request is too large.',
  '22021': 'The request contains characters that are not allowed.',
  '22P05': 'The request contains characters that are not allowed.',
  '22P02': 'A value in the request has the wrong format.',
  '22007': 'A value in the request has the wrong format.',
  '22008': 'A value in the request has the wrong format.',
};
const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * The multipart parser (busboy, under @fastify/multipart) throws plain errors for a body it cannot
 * read: no boundary in the content type, a boundary it cannot use, or a body that ends early.
 */
const MULTIPART_PARSE_ERROR =
  /^(Multipart: Boundary not found|Boundary required|Unexpected end of (form|multipart data)|.* terminated early due to unexpected end of multipart data|Malformed part header|The needle cannot)/;
const MULTIPART_MESSAGE = 'The upload could not be read: the multipart/form-data body is malformed or incomplete. Please choose the file again.';

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Every failure is the JSON envelope, even from a route that had set a file's headers before
    // it failed (the finance CSV's stream): as text/csv the envelope could not be sent at all.
    reply.removeHeader('content-disposition').type('application/json; charset=utf-8');
    if (error instanceof AppError) {
      // A service that is down (the file store): logged with its cause, answered with its message.
      if (error.status >= 500) request.log.error({ err: error.cause ?? error }, error.message);
      return reply.status(error.status).send({ success: false, message: error.message, ...(error.errors ? { errors: error.errors } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = fieldErrors(error.validation);
      const first = Object.values(errors)[0] ?? 'Invalid request';
      return reply.status(400).send({ success: false, message: first, errors });
    }
    if (error.validation) {
      const errors = fieldErrors(error.validation);
      return reply.status(400).send({ success: false, message: Object.values(errors)[0] ?? 'Invalid request', errors });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
        .send({ success: false, message: UNAVAILABLE_MESSAGE });
    }
    const pgCode = (error as { code?: string }).code;
    if (pgCode === '23505') return reply.status(409).send({ success: false, message: 'This record already exists.' });
    if (pgCode === '23P01') return reply.status(409).send({ success: false, message: 'This conflicts with an existing record.' });
    if (pgCode && SQLSTATE.test(pgCode) && (pgCode.startsWith('22') || pgCode === '23514')) {
      // Logged: a value the schemas should have refused, or a figure the server computed wrong.
      request.log.warn({ err: error }, 'the database refused a value');
      return reply.status(400).send({ success: false, message: DATA_ERROR_MESSAGES[pgCode] ?? DATA_ERROR });
    }
    if (!error.statusCode && MULTIPART_PARSE_ERROR.test(error.message ?? '')) {
      return reply.status(400).send({ success: false, message: MULTIPART_MESSAGE });
    }

    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = (error.code && FRAMEWORK_MESSAGES[error.code]) || error.message || 'Bad request';
      return reply.status(status).send({ success: false, message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ success: false, message: GENERIC_500 });
  });
}
