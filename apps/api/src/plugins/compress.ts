// Compresses the API's answers (JSON, text) above 1 KB when the client accepts brotli or gzip, with
// @fastify/compress at levels tuned for speed: an answer is compressed on every request, unlike the
// web app's files, which the build compresses once at the best ratio (served by @fastify/static
// `preCompressed`). An answer that already carries a Content-Encoding (the car browse route's cached
// gzip pages, the precompressed assets) goes out as it is. Request bodies are never inflated: a
// compressed upload would slip past the body limit (decision 036).
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants as zlib } from 'node:zlib';

export const COMPRESS_THRESHOLD_BYTES = 1024;
const COMPRESSIBLE = /^(application\/(json|[\w.+-]+\+json|javascript|xml)|text\/(?!event-stream))/i;

export async function registerCompression(app: FastifyInstance) {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE,
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 5 },
  });
}
