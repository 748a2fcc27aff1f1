#!/usr/bin/env node
// The suite drives Debian's Chromium (end to end) and reads the PDFs it makes with poppler's
// pdftotext and pdftoppm (receipts, invoices and the documents after a trip). Install what is missing
// from Debian's packages (as root, or through sudo); Playwright's own browser download is never used
// (it cannot download here). `npm test` runs this first, so a fresh machine fails here, with the
// command to run, and not half-way through the API tests.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const tools = [
  { path: CHROMIUM, pkg: 'chromium' },
  { path: '/usr/bin/pdftotext', pkg: 'poppler-utils' },
  { path: '/usr/bin/pdftoppm', pkg: 'poppler-utils' },
];

const missing = tools.filter((tool) => !existsSync(tool.path));
if (missing.length === 0) process.exit(0);

const packages = [...new Set(missing.map((tool) => tool.pkg))];
const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
const command = `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages.join(' ')}`;
console.log(`Missing ${missing.map((tool) => tool.path).join(', ')}; installing Debian's ${packages.join(', ')}...`);
try {
  execSync(command, { stdio: 'inherit', shell: '/bin/bash' });
} catch {
  console.error(`Could not install them. Run: ${command}${process.env.CHROMIUM_PATH ? '' : ' (or set CHROMIUM_PATH to a Chromium)'}`);
  process.exit(1);
}
const still = missing.filter((tool) => !existsSync(tool.path));
if (still.length > 0) {
  console.error(`Still missing: ${still.map((tool) => tool.path).join(', ')}.`);
  process.exit(1);
}
