// What every operation in /api/openapi.json says beyond its own schema, filled in one place so a
// client generator can trust the document: a stable operationId, who may call it (routes guarded by
// routesFor() declare the bearer token themselves; the rest are public and say `security: []`), and
// the error envelope for the 4xx answers any route can give (400 bad input, 404, 429 throttled).
import { errorResponseSchema } from '@karoo/shared';
import type { FastifySchema, RouteOptions } from 'fastify';

const errorAnswer = errorResponseSchema.describe(
  'The request was refused: `message` says why (400 invalid input with `errors` per field, 401, 403, 404, 409, 410, 413, 415, 429 throttled).',
);

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** GET /api/car/getCarDetails/:id → getCarGetCarDetailsById; unique because method and path are. */
export function operationIdFor(method: string, url: string): string {
  const words = url
    .replace(/^\/api(?=\/|$)/, '')
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? `By${pascal(segment.slice(1))}` : segment))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean)
    .map(pascal);
  return method.toLowerCase() + words.join('');
}

interface TransformInput {
  schema: FastifySchema;
  url: string;
  route: RouteOptions;
}

export function describeOperation<T extends TransformInput>(input: T): T {
  const original = (input.schema ?? {}) as FastifySchema & Record<string, unknown>;
  if (original.hide) return input;
  const method = [input.route.method].flat()[0] ?? 'get';
  const response = { ...((original.response as Record<string, unknown> | undefined) ?? {}) };
  if (!Object.keys(response).some((status) => status.startsWith('4'))) response['4XX'] = errorAnswer;
  const schema = {
    ...original,
    operationId: original.operationId ?? operationIdFor(method, input.url),
    security: original.security ?? [],
    response,
  };
  return { ...input, schema };
}

/** How a route that answers with a file rather than the JSON envelope describes its body. */
export interface FileAnswer {
  description: string;
  types: string[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Documents the 200 answer as a file of these types (errors stay the JSON envelope). */
    fileAnswer?: FileAnswer;
  }
}

/** Route config for a file download: `config: fileAnswer('The document', ['application/pdf'])`. */
export function fileAnswer(description: string, types: string[]): { fileAnswer: FileAnswer } {
  return { fileAnswer: { description, types } };
}

/** The swagger transform: the defaults above, zod to JSON Schema, then file answers. */
export function transformOperation<T extends TransformInput, R extends { schema: unknown }>(input: T, toJsonSchema: (input: T) => R): R {
  const described = toJsonSchema(describeOperation(input));
  const file = (input.route.config as { fileAnswer?: FileAnswer } | undefined)?.fileAnswer;
  if (!file) return described;
  const schema = described.schema as { response?: Record<string, unknown> };
  const binary = { type: 'string', format: 'binary' };
  schema.response = {
    ...schema.response,
    200: { description: file.description, content: Object.fromEntries(file.types.map((type) => [type, { schema: binary }])) },
  };
  return described;
}
