// API answers are compressed above 1 KB when the client accepts it (plugins/compress.ts); small
// ones go out as they are, and an answer already compressed (the browse route's cached pages) is
// never compressed twice.
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, createTestApp, type TestApp } from './helpers';
import { createTestCar } from './helpers/vehicles';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '60000' } });
  const owner = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  for (let i = 0; i < 4; i++) await createTestCar(t.ctx, owner.user, { make: 'Squeezed' });
});
afterAll(async () => {
  await t?.close();
});

describe('compressing API answers', () => {
  it('gzips a large JSON answer for a client that accepts gzip', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);

    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(gunzipSync(res.rawPayload).toString()).toBe(plain.body);
  });

  it('prefers brotli when accepted', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(res.rawPayload).toString())).toHaveProperty('openapi');
  });

  it('sends a small answer as it is', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(() => res.json()).not.toThrow();
  });

  it('never compresses twice an answer that is already compressed (cached browse pages)', async () => {
    const url = '/api/car/getCarList?search=squeezed';
    const plain = await t.app.inject({ method: 'GET', url });
    expect(plain.statusCode).toBe(200);
    expect(plain.json().data).toHaveLength(4);
    expect(plain.body.length).toBeGreaterThan(1024);
    for (const acceptEncoding of ['gzip', 'gzip, br']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': acceptEncoding } });
      expect(res.statusCode).toBe(200);
      const encoding = res.headers['content-encoding'];
      expect(encoding).toMatch(/^(gzip|br)$/);
      const body = encoding === 'br' ? brotliDecompressSync(res.rawPayload) : gunzipSync(res.rawPayload);
      expect(JSON.parse(body.toString())).toEqual(plain.json());
    }
  });

  it('reads Accept-Encoding with its weights', async () => {
    const encodingFor = async (acceptEncoding?: string) => {
      const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });
      expect(res.statusCode).toBe(200);
      return res.headers['content-encoding'] ?? null;
    };
    expect(await encodingFor(undefined)).toBeNull();
    expect(await encodingFor('identity')).toBeNull();
    expect(await encodingFor('gzip')).toBe('gzip');
    expect(await encodingFor('gzip, br')).toBe('br');
    expect(await encodingFor('br;q=0, gzip;q=0.8')).toBe('gzip');
    expect(await encodingFor('*')).toMatch(/^(br|gzip)$/);
    expect(await encodingFor('gzip;q=0')).toBeNull();
  });

  it('never inflates a compressed request body (it would slip past the body limit)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ username: 'nobody', password: 'x' })),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});
