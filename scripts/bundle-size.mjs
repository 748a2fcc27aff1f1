#!/usr/bin/env node
// The landing page's JavaScript budget: sums the gzip size of the scripts apps/web/dist/index.html
// makes the browser load before the first paint (the entry module and its modulepreload links)
// and fails above the limit. Run after `vite build`: `npm run size`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const LIMIT_KB = Number(process.env.BUNDLE_LIMIT_KB ?? 135);
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
