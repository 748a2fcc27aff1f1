#!/usr/bin/env node
// The landing page's JavaScript budget: sums the gzip size of the scripts apps/web/dist/index.html
// makes the browser load before the first paint (the entry module and its modulepreload links)
// and fails above the limit. Then the other server-rendered pages (/cars and a car page): their
// route's chunks from Vite's manifest, added to the entry's, under a limit of their own, and with
// no chunk of zod and the form libraries (decision 053: the public pages build no schema); and
// zod, where the build has it, with its compiler off (decision 015).
// Run after `vite build`: `npm run size`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const LIMIT_KB = Number(process.env.BUNDLE_LIMIT_KB ?? 136);
const ROUTE_LIMIT_KB = Number(process.env.BUNDLE_ROUTE_LIMIT_KB ?? 170);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'apps/web/dist');
const indexFile = path.join(dist, 'index.html');

if (!existsSync(indexFile)) {
  console.error(`No ${path.relative(root, indexFile)}: build the web app first (cd apps/web && npx vite build).`);
  process.exit(1);
}

const html = readFileSync(indexFile, 'utf8');
const attr = (tag, name) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`, 'i').exec(tag)?.[1];
const scripts = new Set();
for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
  const src = attr(tag, 'src');
  if (src && /type\s*=\s*["']module["']/i.test(tag)) scripts.add(src);
}
for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
  if (/rel\s*=\s*["']modulepreload["']/i.test(tag)) {
    const href = attr(tag, 'href');
    if (href) scripts.add(href);
  }
}
if (scripts.size === 0) {
  console.error('No module script found in index.html.');
  process.exit(1);
}

let total = 0;
const rows = [];
for (const src of scripts) {
  const file = path.join(dist, src.replace(/^\//, '').split(/[?#]/)[0]);
  if (!existsSync(file)) {
    console.error(`index.html loads ${src}, which is not in dist/.`);
    process.exit(1);
  }
  const gzip = gzipSync(readFileSync(file), { level: 9 }).length;
  total += gzip;
  rows.push([src, gzip]);
}

const kb = (bytes) => (bytes / 1024).toFixed(1);
for (const [src, gzip] of rows.sort((a, b) => b[1] - a[1])) console.log(`${kb(gzip).padStart(8)} KB  ${src}`);
console.log(`${kb(total).padStart(8)} KB  total gzip JavaScript loaded by the landing page (limit ${LIMIT_KB} KB)`);
if (total > LIMIT_KB * 1024) {
  console.error(`Over budget by ${kb(total - LIMIT_KB * 1024)} KB: move more code behind lazy routes or dynamic imports.`);
  process.exit(1);
}

// The server-rendered routes (SERVER_RENDERED_SOURCES in apps/web/src/app/router.tsx).
const ROUTES = { '/cars': 'src/app/routes/browse-route.tsx', 'a car page': 'src/app/routes/car-detail-route.tsx' };
const manifestFile = path.join(dist, '.vite/manifest.json');
if (!existsSync(manifestFile)) {
  console.error(`No ${path.relative(root, manifestFile)}: the build writes it (build.manifest).`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const gzipOf = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
let failed = false;
for (const [page, source] of Object.entries(ROUTES)) {
  if (!manifest[source]) {
    console.error(`${source} is not in the build's manifest: has the route moved? (SERVER_RENDERED_SOURCES)`);
    process.exit(1);
  }
  const files = new Set(rows.map(([src]) => src.replace(/^\//, '')));
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const next of chunk.imports ?? []) visit(next);
  };
  visit(source);
  const pageTotal = [...files].reduce((sum, file) => sum + gzipOf(file), 0);
  const forms = [...files].filter((file) => /^assets\/forms-/.test(file));
  console.log(`${kb(pageTotal).padStart(8)} KB  total gzip JavaScript of ${page} (limit ${ROUTE_LIMIT_KB} KB)`);
  if (forms.length) {
    console.error(`${page} loads ${forms.join(', ')} (zod and the form libraries): a module it imports builds a schema. Keep schemas apart from what the page draws with (decision 053).`);
    failed = true;
  }
  if (pageTotal > ROUTE_LIMIT_KB * 1024) {
    console.error(`${page} is over budget by ${kb(pageTotal - ROUTE_LIMIT_KB * 1024)} KB.`);
    failed = true;
  }
}
// zod's compiler must be off in the browser (packages/shared/src/zod.ts): it calls `new Function`,
// which the content security policy refuses and reports. A bundler that dropped zod.ts's side
// effect would leave zod in the build without the setting.
const chunks = Object.values(manifest).map((chunk) => readFileSync(path.join(dist, chunk.file), 'utf8'));
if (chunks.some((code) => code.includes('jitless')) && !chunks.some((code) => /jitless:(!0|true)/.test(code))) {
  console.error("The build carries zod without zod.ts's setting (jitless): its compiler would break the CSP. Keep src/zod.ts's side effect (vite.config.ts, treeshake).");
  failed = true;
}
if (failed) process.exit(1);
