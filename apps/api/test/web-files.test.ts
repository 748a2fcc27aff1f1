// The built web app as server.ts serves it: the app's HTML for its own routes, and a real 404 for
// any missing file (a photo, a script chunk), so nothing takes the app's page for an image or a
// script; robots.txt is the API's own (decision 044).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
let dist: string;
const INDEX = '<!doctype html><title>Karoo</title><div id="root"></div>';
const BIG_ASSET = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i}`))};`;

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'karoo-web-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), INDEX);
  await writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("karoo")');
  // As the build writes them (vite.config.ts, precompress): a .br and a .gz copy of each big file.
  await writeFile(path.join(dist, 'assets', 'big-def456.js'), BIG_ASSET);
  await writeFile(path.join(dist, 'assets', 'big-def456.js.br'), brotliCompressSync(BIG_ASSET));
  await writeFile(path.join(dist, 'assets', 'big-def456.js.gz'), gzipSync(BIG_ASSET));
  await writeFile(path.join(dist, 'index.html.br'), brotliCompressSync(INDEX));
  await writeFile(path.join(dist, 'index.html.gz'), gzipSync(INDEX));
  t = await createTestApp({ webDistDir: dist });
});
afterAll(async () => {
  await t?.close();
  await rm(dist, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it('answers the app for its routes, never cached', async () => {
    for (const url of ['/', '/cars', '/cars/toyota-corolla-123456', '/my-bookings?status=pending', '/reset-password?token=a.b']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(INDEX);
    }
  });

  it('serves existing assets for good and robots.txt as text', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const robots = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-type']).toMatch(/text\/plain/);
    expect(robots.body).toContain('User-agent');
  });

  it('sends the precompressed copy of an asset: brotli when accepted, else gzip, else as it is; cached for good', async () => {
    const br = await t.app.inject({ method: 'GET', url: '/assets/big-def456.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_ASSET);

    const gz = await t.app.inject({ method: 'GET', url: '/assets/big-def456.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(BIG_ASSET);

    const plain = await t.app.inject({ method: 'GET', url: '/assets/big-def456.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_ASSET);

    // A small file has no compressed copy: sent as it is, whatever the browser accepts.
    const small = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('console.log("karoo")');
  });

  it('sends the app (SPA fallback) compressed too, never cached', async () => {
    for (const url of ['/', '/cars']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(INDEX);
    }
  });

  it('answers 404 (not the app) for a missing asset, photo or other file', async () => {
    for (const url of ['/assets/index-gone999.js', '/assets/missing.css', '/uploads/cars/nope.webp', '/favicon-old.ico', '/sitemap-old.xml']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('<div id="root">');
      expect(res.json()).toEqual({ success: false, message: 'File not found' });
    }
  });
});

describe('the API reference page', () => {
  it('may use inline styles (Swagger UI sets them as it renders) but never inline scripts or eval', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toMatch(/style-src [^;]*'unsafe-inline'/);
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toMatch(/script-src [^;]*'unsafe-(inline|eval)'/);
  });
});
