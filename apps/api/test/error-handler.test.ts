// The one error handler (docs/decisions/004 and 012): whatever a route had started to answer, a
// failure leaves as the JSON envelope. The admin CSV export set text/csv and an attachment name
// before its stream failed, and the envelope could not be sent as text/csv: Fastify answered its
// own 500, "Attempted to send payload of invalid type 'object'" (issue 18).
import Fastify, { type FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { badRequest } from '../src/lib/app-error';
import { registerErrorHandler } from '../src/plugins/error-handler';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
});

async function failingFileRoute(failure: () => Error) {
  const server = Fastify({ logger: false });
  app = server;
  registerErrorHandler(server);
  server.get('/export.csv', async (_request, reply) => {
    // Fails on the first read, as the export's first page query would.
    const rows = new Readable({
      read() {
        this.destroy(failure());
      },
    });
    return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="x.csv"').send(rows);
  });
  await server.ready();
  return server.inject({ method: 'GET', url: '/export.csv' });
}

describe('a file answer that fails before its first byte', () => {
  it('answers the generic 500 envelope as JSON, not a file', async () => {
    const res = await failingFileRoute(() => new Error('the database went away'));
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.json()).toEqual({ success: false, message: 'Something went wrong on our side. Please try again.' });
  });

  it("answers an AppError's status and message as JSON", async () => {
    const res = await failingFileRoute(() => badRequest('to must be a real date (YYYY-MM-DD)'));
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ success: false, message: 'to must be a real date (YYYY-MM-DD)' });
  });
});
