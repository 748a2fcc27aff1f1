// What both `npm run chaos` scenarios use: a real Karoo server as a child process, a free port, and
// the JSON calls the load makes (bench/chaos.ts, bench/chaos-database.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { waitForListening } from '../test/helpers/process';

export const PASSWORD = 'Demo@1234';
export const RENTERS = ['sipho', 'kagiso', 'priya', 'ruan', 'aisha'];
const apiRoot = fileURLToPath(new URL('..', import.meta.url));

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Instance {
  child: ChildProcess | null = null;
  log = '';
  constructor(
    readonly port: number,
    readonly env: Record<string, string>,
  ) {}

  get base() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Whether the process is running (it has not exited since start()). */
  get isAlive() {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<number> {
    const started = Date.now();
    this.child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: apiRoot,
      env: { ...process.env, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.child.stdout!.on('data', (chunk) => (this.log += chunk));
    this.child.stderr!.on('data', (chunk) => (this.log += chunk));
    // On the server's own word (it listens), or its exit: no guess of how long a start takes here.
    await waitForListening(this.child, () => this.log);
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`server exited with ${this.child.exitCode}:\n${this.log.slice(-3000)}`);
      const res = await fetch(`${this.base}/api/health/ready`).catch(() => null);
      if (res?.status === 200) return Date.now() - started;
      await sleep(100);
    }
  }

  async kill9() {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

export async function call<T>(base: string, method: string, url: string, token?: string, body?: unknown): Promise<{ status: number; data: T; message?: string }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json().catch(() => ({}))) as { data: T; message?: string };
  return { status: res.status, data: json.data, message: json.message };
}

export async function login(base: string, username: string): Promise<string> {
  const res = await call<{ token: string }>(base, 'POST', '/api/user/login', undefined, { username, password: PASSWORD });
  if (res.status !== 200) throw new Error(`login ${username}: ${res.status} ${res.message}`);
  return res.data.token;
}

export const isoDay = (date: Date) => date.toISOString().slice(0, 10);
