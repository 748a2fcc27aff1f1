// Environment, read once and validated at start-up, with safe defaults for the embedded mode.
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes'].includes(v)));

/** proxy-addr's names for address ranges, which Fastify's trustProxy also reads. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const MAX_PROXY_HOPS = 10;

/** An IP address, a CIDR range (10.0.0.0/8, 2001:db8::/32) or one of proxy-addr's named ranges. */
function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * Which X-Forwarded-For entries to believe (docs/decisions/030-proxies-and-sign-in-links.md): off,
 * a count of the proxies in front of the app (on the internal network; plugins/trust-proxy.ts), or
 * their addresses and ranges. The client address is then the one the nearest untrusted hop
 * reported; what a client writes further left is ignored. `true` would believe every entry, the
 * client's own included, so it is refused with what to write instead.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((raw, ctx): false | number | string[] => {
    const value = (raw ?? '').trim().toLowerCase();
    if (['', 'false', 'no', '0'].includes(value)) return false;
    if (['true', 'yes'].includes(value)) {
      ctx.addIssue({
        code: 'custom',
        message:
          '"true" would believe every X-Forwarded-For entry, so any client could pick its own address (and read /metrics or dodge the sign-in throttles). ' +
          'Give the number of proxies in front of Karoo (e.g. TRUST_PROXY=1) or their addresses or ranges (e.g. TRUST_PROXY=10.0.0.0/8), or false without a proxy.',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops > MAX_PROXY_HOPS) ctx.addIssue({ code: 'custom', message: `at most ${MAX_PROXY_HOPS} hops (a count of the proxies in front of Karoo)` });
      return hops;
    }
    const entries = (raw ?? '').split(',').map((entry) => entry.trim());
    for (const entry of entries) {
      if (!entry) ctx.addIssue({ code: 'custom', message: 'an empty entry: give a comma-separated list of proxy addresses or ranges' });
      else if (!isAddressOrRange(entry.toLowerCase())) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is not an IP address or range: give a hop count (e.g. 1) or the proxies' addresses or ranges (e.g. 10.0.0.0/8, loopback)`,
        });
      }
    }
    return entries.map((entry) => entry.toLowerCase());
  });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  /**
   * With DATABASE_URL (docs/decisions/029-database-failures.md), in ms, 0 for none: the longest wait
   * for a connection (new, or free in a busy pool), statement_timeout (the client itself gives up
   * a second later, when the server does not answer at all), and idle_in_transaction_session_timeout.
   * A request that meets one answers 503 in seconds instead of waiting for the database.
   */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  APP_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: bool(true),
  // The admin panel also honours the seeds' reading "username contains 'admin'" (document 3).
  ADMIN_USERNAME: z
    .string()
    .regex(/admin/i, "must contain 'admin' (the admin panel also checks the username)")
    .default('admin'),
  ADMIN_EMAIL: z.string().email().default('admin@karoo.co.za'),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Karoo <no-reply@karoo.co.za>'),
  /**
   * The company named on every receipt and invoice (modules/receipts, decision 040). The defaults
   * are the demo's; a real deployment sets its own registered name, CIPC number and address.
   */
  COMPANY_NAME: z.string().trim().min(1).max(120).default('Karoo (Pty) Ltd'),
  COMPANY_REGISTRATION: z.string().trim().min(1).max(40).default('2024/123456/07'),
  COMPANY_ADDRESS: z.string().trim().min(1).max(240).default('1 Bree Street, Cape Town City Centre, Cape Town, 8001'),
  /**
   * SARS VAT number; unset while Karoo is not registered for VAT (the receipts then say no VAT is
   * charged). Set, the documents become tax invoices showing the VAT included in Karoo's fees.
   */
  COMPANY_VAT_NUMBER: z
    .string()
    .trim()
    .regex(/^4\d{9}$/, 'must be a South African VAT number: 10 digits starting with 4 (or unset while not registered)')
    .optional(),
  /**
   * The reverse proxies whose X-Forwarded-For entries are believed: a hop count or their addresses
   * and ranges; off by default, so clients cannot pick their IP (`true` is refused, see above).
   */
  TRUST_PROXY: trustProxy,
  /** A bearer token a Prometheus scraper outside the internal network may send to read /metrics. */
  METRICS_TOKEN: z.string().min(16).optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /**
   * A public page is rendered on the server only while the event loop is less than this many ms
   * behind (the worst of the last second); past it the client-rendered shell is sent (decision 057,
   * amended). 0: by the count of renders in flight only.
   */
  RENDER_MAX_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(80),
  WEB_DIST_DIR: z.string().optional(),
  /**
   * On SIGTERM: how long readiness says 503 before the server stops accepting (so a balancer that
   * polls /api/health/ready stops routing here first), and the most the whole shutdown may take.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(25_000),
  PAYSTACK_PUBLIC_KEY: z.string().optional(),
  PAYSTACK_SECRET_KEY: z.string().optional(),
  /** Paystack's API; tests point it at a local stub. */
  PAYSTACK_BASE_URL: z.string().url().default('https://api.paystack.co'),
  /** The sandbox payout provider asks for the OTP (123456) before a transfer goes, as Paystack does with its OTP setting on (decision 068). */
  PAYOUT_SANDBOX_OTP: bool(false),
  /**
   * Redis shared by every instance (decision 026): the per-IP rate limit counts there and cache
   * invalidations travel by its pub/sub. Without it, invalidations travel by PostgreSQL
   * LISTEN/NOTIFY (DATABASE_URL) or stay in the process (the embedded database).
   */
  REDIS_URL: z.string().url().optional(),
  /** Prefix of the Redis keys and channel and the PostgreSQL NOTIFY channel; instances that share state use the same one. */
  CACHE_NAMESPACE: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,39}$/, 'must be 1-40 lowercase letters, digits or _, starting with a letter')
    .default('karoo'),
  /** How long a public browse page may be served from memory (ms); 0 turns the cache off. */
  BROWSE_CACHE_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  /** The public browse from memory (docs/decisions/028-browse-index.md); `off` answers every page in SQL. */
  BROWSE_INDEX: z.enum(['on', 'off']).default('on'),
  /** How often (ms) the browse index looks for writes it was not told of; 0: before every answer. */
  BROWSE_INDEX_POLL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** A comment line on each quiet live stream this often (ms), so proxies keep it open (decision 083). */
  LIVE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  /**
   * S3-compatible object storage for uploaded files (docs/decisions/022-object-storage.md): one
   * bucket, keys under `private/` and `public/`; unset S3_BUCKET keeps files under DATA_DIR/files.
   */
  S3_BUCKET: z.string().optional(),
  /** e.g. http://minio:9000; unset means AWS S3 itself. */
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Path-style addressing (http://host/bucket/key); by default on with S3_ENDPOINT, off without. */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? undefined : ['true', '1', 'yes'].includes(v))),
  /**
   * The master key that seals identity documents and other private files at rest (32 bytes, base64
   * or hex; docs/decisions/050-account-deletion-retention-breaches.md). Unset: one is generated in
   * DATA_DIR/keys on first start (refused in production with S3_BUCKET, where instances share files).
   */
  DOCUMENT_ENCRYPTION_KEY: z.string().optional(),
  /**
   * Tests only: the instant the server's clock starts at (ISO 8601 with an offset, e.g.
   * 2027-01-25T08:00:00+02:00); it then runs at real speed. Refused unless NODE_ENV=test.
   */
  KAROO_TEST_NOW: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 instant with an offset, e.g. 2027-01-25T08:00:00+02:00' })
    .optional(),
});

export type Env = z.infer<typeof envSchema> & { APP_URL: string; FILES_DIR: string };

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // An empty variable (FOO= in a shell or a compose file) means "not set".
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid environment:\n${lines}`);
  }
  const env = parsed.data;
  if (!env.SEED_DEMO && !env.ADMIN_PASSWORD) {
    throw new Error('Invalid environment:\n  ADMIN_PASSWORD: required when SEED_DEMO=false (at least 8 characters)');
  }
  // Half an S3 set-up would quietly keep files on one instance's disk, or fail on the first upload.
  if (!env.S3_BUCKET && (env.S3_ENDPOINT || env.S3_ACCESS_KEY_ID || env.S3_SECRET_ACCESS_KEY)) {
    throw new Error('Invalid environment:\n  S3_BUCKET: required when S3_ENDPOINT or S3 keys are set (files would otherwise stay on local disk)');
  }
  if (!env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY) {
    throw new Error('Invalid environment:\n  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither');
  }
  // A pinned clock in a real deployment would silently break every expiry and "today"; only the
  // end-to-end harness may set it.
  if (env.KAROO_TEST_NOW && env.NODE_ENV !== 'test') {
    throw new Error(
      `Invalid environment:\n  KAROO_TEST_NOW: only allowed when NODE_ENV=test (NODE_ENV is ${env.NODE_ENV}); it pins the clock for end-to-end tests. Unset it.`,
    );
  }
  return {
    ...env,
    DATA_DIR: path.resolve(env.DATA_DIR),
    APP_URL: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    FILES_DIR: path.resolve(env.DATA_DIR, 'files'),
  };
}
