#!/usr/bin/env node
// `npm run lighthouse`: Lighthouse 12 on the built app, as a visitor meets it. Builds if needed,
// starts the built server on a throwaway data folder with the demo data (as e2e/start-server.mjs
// does), and audits the landing page, /cars and one car page in Debian's Chromium, with the mobile
// preset (Lighthouse's default: a mid-range phone on slow 4G) and the desktop preset, then prints:
//   page | mobile perf | desktop perf | a11y | best practices | SEO | LCP mobile | CLS | JS transferred
// Not part of `npm test`: timing scores are noisy on a shared machine. Options (environment):
//   CHROME_PATH (default /usr/bin/chromium), LH_PORT (default 3250), LH_RUNS (runs per page and
//   preset, the median by performance score is kept; default 1), LH_JSON=file (all figures as JSON).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverFile = path.join(root, 'apps/api/dist/server.js');
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const port = Number(process.env.LH_PORT ?? 3250);
const runs = Math.max(1, Number(process.env.LH_RUNS ?? 1));
const base = `http://localhost:${port}`;

if (!existsSync(serverFile) || !existsSync(path.join(root, 'apps/web/dist/index.html'))) {
  console.log('Building the app first (npm run build)…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Audit our own server, never one already listening there.
if (await fetch(`${base}/api/health`).then(() => true, () => false)) {
  console.error(`Port ${port} is in use: stop what listens there or set LH_PORT.`);
  process.exit(1);
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'karoo-lighthouse-'));
const server = spawn(process.execPath, [serverFile], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SMTP_URL: '',
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000',
  },
});
let chrome;
const cleanUp = async () => {
  try {
    await chrome?.kill();
  } catch {
    // already gone
  }
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('SIGINT', () => void cleanUp().then(() => process.exit(130)));

async function waitForServer() {
  for (let i = 0; i < 240; i++) {
    if (server.exitCode !== null) throw new Error(`The server stopped (exit code ${server.exitCode}).`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('The server did not start within 2 minutes.');
}

const median = (results) => {
  const sorted = [...results].sort((a, b) => a.performance - b.performance);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

async function audit(url, preset) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] };
    // Lighthouse sometimes loses a trace (NO_NAVSTART, NO_FCP) on a busy machine: try again.
    let lhr;
    for (let attempt = 1; ; attempt++) {
      lhr = (await lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined)).lhr;
      if (!lhr.runtimeError) break;
      if (attempt === 3) throw new Error(`${url} (${preset}): ${lhr.runtimeError.message}`);
    }
    const scripts = (lhr.audits['network-requests']?.details?.items ?? []).filter((item) => item.resourceType === 'Script');
    results.push({
      performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
      bestPractices: Math.round((lhr.categories['best-practices'].score ?? 0) * 100),
      seo: Math.round((lhr.categories.seo.score ?? 0) * 100),
      lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
      jsBytes: scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
      fcpMs: lhr.audits['first-contentful-paint']?.numericValue ?? NaN,
      tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
      speedIndexMs: lhr.audits['speed-index']?.numericValue ?? NaN,
      lcpElement: lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? null,
      lcpPhases: lhr.audits['largest-contentful-paint-element']?.details?.items?.[1]?.items ?? null,
      failing: Object.values(lhr.categories)
        .filter((category) => category.id !== 'performance')
        .flatMap((category) => category.auditRefs.filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1).map((ref) => `${category.id}: ${ref.id}`)),
    });
  }
  return median(results);
}

try {
  await waitForServer();
  const list = await (await fetch(`${base}/api/car/getCarList?limit=1`)).json();
  const car = list.data?.[0]?.car_username;
  if (!car) throw new Error('No car in the demo data.');
  const pages = [
    ['/', '/'],
    ['/cars', '/cars'],
    ['car page', `/cars/${car}`],
  ];

  chrome = await chromeLauncher.launch({ chromePath, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  const rows = [];
  for (const [label, urlPath] of pages) {
    // A first visit warms the server's caches (the browse page cache, the car's photos).
    await fetch(`${base}${urlPath}`);
    const mobile = await audit(`${base}${urlPath}`, 'mobile');
    const desktop = await audit(`${base}${urlPath}`, 'desktop');
    rows.push({ label, url: urlPath, mobile, desktop });
    console.log(`  audited ${label}`);
  }

  const header = ['page', 'mobile perf', 'desktop perf', 'a11y', 'best practices', 'SEO', 'LCP mobile', 'CLS', 'JS transferred'];
  const table = rows.map(({ label, mobile, desktop }) => [
    label,
    String(mobile.performance),
    String(desktop.performance),
    String(mobile.accessibility),
    String(mobile.bestPractices),
    String(mobile.seo),
    `${(mobile.lcpMs / 1000).toFixed(1)} s`,
    Math.max(mobile.cls, desktop.cls).toFixed(3),
    `${Math.round(mobile.jsBytes / 1024)} KB`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  console.log(`\nLighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}, ${chromePath}, ${runs} run(s) per page and preset (median)\n`);
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of table) console.log(line(row));
  const failing = [...new Set(rows.flatMap(({ label, mobile }) => mobile.failing.map((f) => `${label}: ${f}`)))];
  if (failing.length) console.log(`\nAudits below full marks (accessibility, best practices, SEO):\n  ${failing.join('\n  ')}`);
  if (process.env.LH_JSON) writeFileSync(process.env.LH_JSON, JSON.stringify(rows, null, 2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
