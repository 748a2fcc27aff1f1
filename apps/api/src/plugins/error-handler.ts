// The single error handler: every failure leaves as { success: false, message, errors? } with the
// right status. Anything unexpected is logged with its request id and answered with a generic 500.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
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
};

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
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
    const pgCode = (error as { code?: string }).code;
    if (pgCode === '23505') return reply.status(409).send({ success: false, message: 'This record already exists.' });
    if (pgCode === '23P01') return reply.status(409).send({ success: false, message: 'This conflicts with an existing record.' });
    if (pgCode === '22P02' || pgCode === '22007' || pgCode === '22008') {
      return reply.status(400).send({ success: false, message: 'A value in the request has the wrong format.' });
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
