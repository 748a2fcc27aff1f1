// The built web app as server.ts serves it: the app's HTML for its own routes, and a real 404 for
// any missing file (a photo, a script chunk), so nothing takes the app's page for an image or a
// script; robots.txt is a real file.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
let dist: string;
const INDEX = '<!doctype html><title>Karoo</title><div id="root"></div>';

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'karoo-web-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), INDEX);
  await writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("karoo")');
  await writeFile(path.join(dist, 'robots.txt'), 'User-agent: *\nDisallow: /api/\n');
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

  it('answers 404 (not the app) for a missing asset, photo or other file', async () => {
    for (const url of ['/assets/index-gone999.js', '/assets/missing.css', '/uploads/cars/nope.webp', '/favicon-old.ico', '/sitemap.xml']) {
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
