// `npm run chaos -- flood` (issue 32, decision 057): a flood of distinct server-rendered /cars
// addresses from many client addresses against one real Karoo server (the built web app, demo data
// on the embedded database, production mode), while a prober asks /api/health every 100 ms. Before
// the render bound, 200 such addresses a second for 20 s answered 440-529 of 4,000 within 30 s,
// /api/health's p95 was 4.7 s, and the process's memory grew by 800 MB over three floods and stayed.
// Each flood: FLOOD_RATE requests a second for FLOOD_S seconds, each a /cars address of its own, sent
// from one of 200 loopback addresses (127.0.0.2-201, so the per-address render limit is not what
// holds the line); every request given 30 s. Then the server sits idle until its kept pages are
// past their time, and its resident memory is read again. Loopback only.
//
//   npm run chaos -- flood
//   FLOOD_RATE=100 FLOOD_S=10 FLOODS=1 npm run chaos -- flood
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureWebBuild } from './chaos-database';
import { freePort, Instance, sleep } from './chaos-support';

const FLOOD_RATE = Number(process.env.FLOOD_RATE ?? 200);
const FLOOD_S = Number(process.env.FLOOD_S ?? 20);
const FLOODS = Number(process.env.FLOODS ?? 3);
const ADDRESSES = 200;
const REQUEST_LIMIT_MS = 30_000;
/** Past the page cache's 30 s: whatever the floods left in it has expired. */
const IDLE_MS = 35_000;
const SHELL = /<div id="root">\s*<\/div>/;

interface Answer {
  status: number;
  ms: number;
  /** The server-rendered page (true) or the client-rendered shell (false); undefined without a 200. */
  rendered?: boolean;
}

/** One GET from `localAddress`, given REQUEST_LIMIT_MS; status 0 when it had no answer in that time. */
function get(base: string, url: string, localAddress?: string): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const target = new URL(url, base);
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname + target.search, ...(localAddress ? { localAddress } : {}), agent: false, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        resolve({ status, ms: performance.now() - started, ...(status === 200 ? { rendered: !SHELL.test(body) } : {}) });
      });
      res.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    });
    req.setTimeout(REQUEST_LIMIT_MS, () => req.destroy(new Error('limit')));
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end();
  });
}

const quantile = (values: number[], q: number) => {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : '-');

/** The server process's resident memory (MB), from /proc. */
function residentMb(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line ? Math.round(Number(line[1]) / 1024) : Number.NaN;
}

/** /api/health every 100 ms until `stop()`: its answer times. */
function probeHealth(base: string) {
  const times: number[] = [];
  let failures = 0;
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const answer = await get(base, '/api/health');
      if (answer.status === 200) times.push(answer.ms);
      else failures += 1;
      await sleep(100);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await done;
      return { times, failures };
    },
  };
}

interface FloodResult {
  sent: number;
  within: number;
  rendered: number;
  shell: number;
  other: number;
  pageP50: number;
  pageP95: number;
  health: { p50: number; p95: number; max: number; failures: number };
  rssAfterMb: number;
}

async function flood(base: string, n: number, pid: number): Promise<FloodResult> {
  const answers: Promise<Answer>[] = [];
  const probe = probeHealth(base);
  const started = performance.now();
  const total = FLOOD_RATE * FLOOD_S;
  for (let sent = 0; sent < total; sent += 1) {
    // On schedule: the nth request at n / rate seconds, however slowly the server answers.
    const due = started + (sent * 1000) / FLOOD_RATE;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const url = `/cars?location=Durban&price_max=${300 + (sent % 2000)}&flood=${n}-${sent}`;
    answers.push(get(base, url, `127.0.0.${2 + (sent % ADDRESSES)}`));
  }
  const all = await Promise.all(answers);
  const health = await probe.stop();
  const ok = all.filter((a) => a.status === 200);
  return {
    sent: all.length,
    within: ok.length,
    rendered: ok.filter((a) => a.rendered).length,
    shell: ok.filter((a) => !a.rendered).length,
    other: all.length - ok.length,
    pageP50: quantile(ok.map((a) => a.ms), 0.5),
    pageP95: quantile(ok.map((a) => a.ms), 0.95),
    health: { p50: quantile(health.times, 0.5), p95: quantile(health.times, 0.95), max: Math.max(...health.times), failures: health.failures },
    rssAfterMb: residentMb(pid),
  };
}

export async function runRenderFlood(): Promise<boolean> {
  ensureWebBuild();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'karoo-chaos-flood-'));
  const instance = new Instance(await freePort(), { NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEED_DEMO: 'true' });
  try {
    await instance.start();
    const pid = instance.child!.pid!;
    const say = (line: string) => process.stdout.write(`  render flood: ${line}\n`);
    // Once warm (the renderer's code, the browse index), the API's normal time.
    await get(instance.base, '/cars?location=Durban');
    const quiet = probeHealth(instance.base);
    await sleep(5000);
    const baseline = await quiet.stop();
    const rssStartMb = residentMb(pid);
    say(`/api/health when quiet: p50 ${ms(quantile(baseline.times, 0.5))}, p95 ${ms(quantile(baseline.times, 0.95))}; resident ${rssStartMb} MB`);
    const floods: FloodResult[] = [];
    for (let n = 1; n <= FLOODS; n += 1) {
      say(`flood ${n} of ${FLOODS}: ${FLOOD_RATE} distinct /cars addresses a second for ${FLOOD_S} s from ${ADDRESSES} addresses`);
      floods.push(await flood(instance.base, n, pid));
    }
    await sleep(IDLE_MS);
    const rssIdleMb = residentMb(pid);

    console.log(`\nServer-rendered /cars flood: ${FLOOD_RATE} distinct addresses a second for ${FLOOD_S} s, from ${ADDRESSES} client addresses, ${FLOODS} times; /api/health probed every 100 ms\n`);
    console.log('| flood | requests | 200 within 30 s | rendered | client-rendered shell | other (no answer, 5xx) | page p50 / p95 | /api/health p50 / p95 / max (failed) | resident memory after |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    console.log(`| quiet | - | - | - | - | - | - | ${ms(quantile(baseline.times, 0.5))} / ${ms(quantile(baseline.times, 0.95))} / ${ms(Math.max(...baseline.times))} (${baseline.failures}) | ${rssStartMb} MB |`);
    floods.forEach((f, i) => {
      console.log(
        `| ${i + 1} | ${f.sent} | ${f.within} | ${f.rendered} | ${f.shell} | ${f.other} | ${ms(f.pageP50)} / ${ms(f.pageP95)} | ${ms(f.health.p50)} / ${ms(f.health.p95)} / ${ms(f.health.max)} (${f.health.failures}) | ${f.rssAfterMb} MB |`,
      );
    });
    console.log(`| idle ${IDLE_MS / 1000} s after | - | - | - | - | - | - | - | ${rssIdleMb} MB |`);
    // Passes when every request had its 200 in time and the API kept answering (no probe failed,
    // its p95 under a second), and the memory after idling is within 300 MB of the start.
    const passed = floods.every((f) => f.other === 0 && f.health.failures === 0 && f.health.p95 < 1000) && rssIdleMb - rssStartMb < 300;
    console.log(`\nrender flood: ${passed ? 'passed' : 'FAILED'}`);
    return passed;
  } finally {
    await instance.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
