#!/usr/bin/env node
// The end-to-end tests drive Debian's Chromium. Install it when it is missing (root on Debian);
// Playwright's own browser download is never used (it cannot download here).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(CHROMIUM)) process.exit(0);

console.log(`Chromium not found at ${CHROMIUM}; installing Debian's chromium package...`);
try {
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  execSync(`${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium`, { stdio: 'inherit' });
} catch {
  console.error('Could not install Chromium. Install it yourself (apt-get install -y chromium) or set CHROMIUM_PATH.');
  process.exit(1);
}
if (!existsSync(CHROMIUM)) {
  console.error(`Chromium is still missing at ${CHROMIUM}.`);
  process.exit(1);
}
