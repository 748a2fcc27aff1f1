#!/usr/bin/env node
// `npm run lighthouse`: Lighthouse 12 on the built app, as a visitor meets it, side by side with the
// best any page could do on this machine. Builds if needed, starts the built server on a throwaway
// data folder with the demo data (as e2e/start-server.mjs does), and for the landing page, /cars and
// one car page:
// - audits the page AS SERVED, with the mobile preset (Lighthouse's default: a mid-range phone on
//   slow 4G) and the desktop preset;
// - audits a SNAPSHOT of the same page: its HTML as Chromium rendered it, with every script
//   removed, served at the same address by a small proxy that passes everything else (styles,
//   photos, fonts) to the real server. No JavaScript runs, so its LCP is the floor for that page's
//   content on this machine and network model; "LCP served / LCP snapshot" says how far from it
//   the page is;
// - counts the bytes a phone (412 px, 1.75x, as Lighthouse's mobile preset) downloads to show the
//   page, and again after scrolling to its end (on /cars: the first 12 cards and their photos),
//   measured in Chromium through the DevTools protocol (encoded bytes, as sent).
// With LH_BEFORE=<another checkout, built> the same is done for that checkout's server in the
// same run, so "before" and "now" are measured side by side under the same machine load.
// Not part of `npm test`: timing scores are noisy on a shared machine. Options (environment):
//   CHROME_PATH (default /usr/bin/chromium), LH_PORT (default 3250; each server takes the next
//   ports), LH_RUNS (runs per page, variant and preset; the median by performance score is kept;
//   default 1), LH_BEFORE (a checkout to compare with), LH_JSON=file (all figures as JSON),
//   LH_REPORTS=folder (every Lighthouse report in full, as JSON, to read its diagnostics).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const firstPort = Number(process.env.LH_PORT ?? 3250);
const runs = Math.max(1, Number(process.env.LH_RUNS ?? 1));
const targets = [
  ...(process.env.LH_BEFORE ? [{ name: 'before', root: path.resolve(process.env.LH_BEFORE) }] : []),
  { name: process.env.LH_BEFORE ? 'now' : 'served', root },
].map((target, i) => ({ ...target, port: firstPort + 2 * i, snapshotPort: firstPort + 2 * i + 1 }));

// Debian's Chromium, installed when missing (as the end-to-end tests do).
if (!process.env.CHROME_PATH && spawnSync(process.execPath, [path.join(root, 'scripts/ensure-system-tools.mjs')], { stdio: 'inherit' }).status !== 0) process.exit(1);

for (const target of targets) {
  const serverFile = path.join(target.root, 'apps/api/dist/server.js');
  if (!existsSync(serverFile) || !existsSync(path.join(target.root, 'apps/web/dist/index.html'))) {
    console.log(`Building ${target.root} first (npm run build)…`);
    const build = spawnSync('npm', ['run', 'build'], { cwd: target.root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
}

// Audit our own servers, never ones already listening there.
for (const target of targets) {
  for (const port of [target.port, target.snapshotPort]) {
    if (await fetch(`http://localhost:${port}/`).then(() => true, () => false)) {
      console.error(`Port ${port} is in use: stop what listens there or set LH_PORT.`);
      process.exit(1);
    }
  }
}

const cleanUps = [];
const cleanUp = async () => {
  for (const fn of cleanUps.reverse()) {
    try {
      await fn();
    } catch {
      // already gone
    }
  }
};
process.on('SIGINT', () => void cleanUp().then(() => process.exit(130)));

function startServer(target) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'karoo-lighthouse-'));
  const server = spawn(process.execPath, [path.join(target.root, 'apps/api/dist/server.js')], {
    cwd: target.root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(target.port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SMTP_URL: '',
      REDIS_URL: '',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000',
    },
  });
  cleanUps.push(() => {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });
  return server;
}

async function waitForServer(server, base) {
  for (let i = 0; i < 240; i++) {
    if (server.exitCode !== null) throw new Error(`The server at ${base} stopped (exit code ${server.exitCode}).`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`The server at ${base} did not start within 2 minutes.`);
}

/**
 * Waits until the demo cars' photos have their widths and formats (the 'photos.convert' jobs the
 * seed queues take a minute or so): a real site's photos are converted seconds after upload, so
 * the pages are measured as visitors meet them, not with the originals. A build without photo
 * variants (LH_BEFORE on an older checkout) answers no `photo.widths`, and is not waited for.
 */
async function waitForPhotos(base) {
  for (let i = 0; i < 600; i++) {
    const answer = await fetch(`${base}/api/car/getCarList?fields=card&limit=48`).then((res) => res.json(), () => null);
    const cars = Array.isArray(answer?.data) ? answer.data : [];
    const photos = cars.map((car) => car.photo).filter(Boolean);
    if (cars.length > 0 && photos.every((photo) => !Array.isArray(photo.widths))) return 'none';
    if (photos.length > 0 && photos.every((photo) => photo.widths.length > 0)) return 'converted';
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`The demo photos at ${base} were not converted within 10 minutes.`);
}

/** Serves the snapshots at their own addresses and passes every other request to the real server. */
function startSnapshotProxy(target, snapshots) {
  const proxy = http.createServer((req, res) => {
    const html = snapshots.get(req.url ?? '');
    if (html !== undefined && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      res.end(html);
      return;
    }
    const upstream = http.request({ host: 'localhost', port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  cleanUps.push(() => new Promise((resolve) => proxy.close(() => resolve())));
  return new Promise((resolve) => proxy.listen(target.snapshotPort, () => resolve(proxy)));
}

/** The phone of Lighthouse's mobile preset (Moto G Power: 412 x 823 CSS px, 1.75 device pixels). */
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

/**
 * Opens the page in Chromium as the phone: its rendered HTML without scripts (the snapshot), and
 * the bytes downloaded to show it and after scrolling to its end.
 */
async function renderAndWeigh(browser, url) {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  let bytes = 0;
  cdp.on('Network.loadingFinished', (event) => {
    bytes += event.encodedDataLength;
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForTimeout(500);
  const atLoad = bytes;
  const html = (await page.content())
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, '');
  // Scroll to the end a screen at a time, so lazy photos load as a visitor's would.
  for (let i = 0; i < 40; i++) {
    // Runs in the page (a string, so Node's linter does not look for a window here).
    const done = await page.evaluate('window.scrollBy(0, window.innerHeight), window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2');
    await page.waitForTimeout(150);
    if (done) break;
  }
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  const scrolled = bytes;
  await context.close();
  return { html, atLoad, scrolled };
}

const median = (results) => {
  const sorted = [...results].sort((a, b) => a.performance - b.performance);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

async function audit(chrome, url, preset) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] };
    // Lighthouse sometimes loses a trace (NO_NAVSTART, NO_FCP) on a busy machine: try again.
    let lhr;
    for (let attempt = 1; ; attempt++) {
      lhr = (await lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined)).lhr;
      if (process.env.LH_REPORTS) {
        mkdirSync(process.env.LH_REPORTS, { recursive: true });
        const name = `${new URL(url).pathname.replace(/\W+/g, '_') || 'root'}-${url.includes(':' + firstPort) ? 'a' : 'b'}-${new URL(url).port}-${preset}-${Date.now()}.json`;
        writeFileSync(path.join(process.env.LH_REPORTS, name), JSON.stringify(lhr));
      }
      if (!lhr.runtimeError) break;
      if (attempt === 3) throw new Error(`${url} (${preset}): ${lhr.runtimeError.message}`);
    }
    const requests = lhr.audits['network-requests']?.details?.items ?? [];
    const bytesOf = (type) => requests.filter((item) => item.resourceType === type).reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
    results.push({
      performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
      bestPractices: Math.round((lhr.categories['best-practices'].score ?? 0) * 100),
      seo: Math.round((lhr.categories.seo.score ?? 0) * 100),
      lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
      jsBytes: bytesOf('Script'),
      imageBytes: bytesOf('Image'),
      totalBytes: lhr.audits['total-byte-weight']?.numericValue ?? NaN,
      fcpMs: lhr.audits['first-contentful-paint']?.numericValue ?? NaN,
      tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
      speedIndexMs: lhr.audits['speed-index']?.numericValue ?? NaN,
      lcpElement: lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? null,
      failing: Object.values(lhr.categories)
        .filter((category) => category.id !== 'performance')
        .flatMap((category) => category.auditRefs.filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1).map((ref) => `${category.id}: ${ref.id}`)),
    });
  }
  return median(results);
}

const kb = (bytes) => `${Math.round(bytes / 1024)} KB`;
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

function printTable(header, table) {
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of table) console.log(line(row));
}

try {
  const loadBefore = os.loadavg();
  const servers = targets.map((target) => ({ target, server: startServer(target) }));
  for (const { target, server } of servers) await waitForServer(server, `http://localhost:${target.port}`);
  for (const { target } of servers) {
    const started = Date.now();
    const photos = await waitForPhotos(`http://localhost:${target.port}`);
    console.log(`  ${target.name}: demo photos ${photos === 'converted' ? `converted (waited ${Math.round((Date.now() - started) / 1000)} s)` : 'have no variants in this build'}`);
  }

  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  cleanUps.push(() => chrome.kill());
  const browser = await chromium.launch({ executablePath: chromePath, args: ['--no-sandbox', '--disable-gpu'] });
  cleanUps.push(() => browser.close());

  const rows = [];
  for (const target of targets) {
    const base = `http://localhost:${target.port}`;
    const list = await (await fetch(`${base}/api/car/getCarList?limit=1`)).json();
    const car = list.data?.[0]?.car_username ?? list.data?.[0]?.id;
    if (!car) throw new Error(`No car in the demo data of ${target.root}.`);
    const pages = [
      ['/', '/'],
      ['/cars', '/cars'],
      ['car page', `/cars/${car}`],
    ];
    const snapshots = new Map();
    const weights = new Map();
    for (const [label, urlPath] of pages) {
      // A first visit warms the server's caches (the browse page cache, the car's photos).
      await fetch(`${base}${urlPath}`);
      const { html, atLoad, scrolled } = await renderAndWeigh(browser, `${base}${urlPath}`);
      snapshots.set(urlPath, html);
      weights.set(label, { atLoad, scrolled });
    }
    await startSnapshotProxy(target, snapshots);
    for (const [label, urlPath] of pages) {
      const served = await audit(chrome, `${base}${urlPath}`, 'mobile');
      const desktop = await audit(chrome, `${base}${urlPath}`, 'desktop');
      const snapshot = await audit(chrome, `http://localhost:${target.snapshotPort}${urlPath}`, 'mobile');
      rows.push({ target: target.name, label, url: urlPath, served, desktop, snapshot, phoneBytes: weights.get(label) });
      console.log(`  audited ${target.name}: ${label}`);
    }
  }
  const loadAfter = os.loadavg();

  const version = (await import('lighthouse/package.json', { with: { type: 'json' } })).default.version;
  console.log(`\nLighthouse ${version}, ${chromePath}, ${runs} run(s) per page, variant and preset (median by score).`);
  console.log(`Machine: ${os.cpus().length} cores, load average ${loadBefore[0].toFixed(2)} at the start, ${loadAfter[0].toFixed(2)} at the end.\n`);
  printTable(
    ['page', 'build', 'mobile perf', 'snapshot perf', 'LCP served', 'LCP snapshot', 'served / snapshot', 'CLS', 'TBT', 'desktop perf', 'a11y', 'best pr.', 'SEO'],
    rows.map(({ target, label, served, desktop, snapshot }) => [
      label,
      target,
      String(served.performance),
      String(snapshot.performance),
      seconds(served.lcpMs),
      seconds(snapshot.lcpMs),
      (served.lcpMs / snapshot.lcpMs).toFixed(2),
      Math.max(served.cls, desktop.cls).toFixed(3),
      `${Math.round(served.tbtMs)} ms`,
      String(desktop.performance),
      String(served.accessibility),
      String(served.bestPractices),
      String(served.seo),
    ]),
  );
  console.log('\nBytes a phone downloads (Lighthouse mobile: the page load; Chromium at 412 px, 1.75x: to show it, and after scrolling to its end)\n');
  printTable(
    ['page', 'build', 'LH total', 'LH scripts', 'LH images', 'phone: shown', 'phone: scrolled to end'],
    rows.map(({ target, label, served, phoneBytes }) => [
      label,
      target,
      kb(served.totalBytes),
      kb(served.jsBytes),
      kb(served.imageBytes),
      kb(phoneBytes.atLoad),
      kb(phoneBytes.scrolled),
    ]),
  );
  const failing = [...new Set(rows.flatMap(({ target, label, served }) => served.failing.map((f) => `${target} ${label}: ${f}`)))];
  if (failing.length) console.log(`\nAudits below full marks (accessibility, best practices, SEO):\n  ${failing.join('\n  ')}`);
  if (process.env.LH_JSON) writeFileSync(process.env.LH_JSON, JSON.stringify({ loadBefore, loadAfter, rows }, null, 2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
