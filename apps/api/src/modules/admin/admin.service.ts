// Admin views of platform internals: the Dashboard's counters, newest users and debug box
// (document 3, Admin panel), the mail outbox, so a developer (or the end-to-end tests) can read
// mail when no SMTP server is configured, and mail delivery: what failed, and sending it again.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ADMIN_RECENT_USERS, type AdminDebugInfo, type AdminMail, type AdminMailListQuery, type AdminOverview } from '@karoo/shared';
import apiPackage from '../../../package.json' with { type: 'json' };
import type { AppContext } from '../../context';
import { conflict, notFound } from '../../lib/app-error';
import { resendFailedMail } from '../../lib/mail';
import { findOutboxMail, listOutboxMail, type OutboxMailRow } from '../../lib/mail-outbox.repository';
import { countCarsForAdmin, forgetBrowsePages } from '../cars';
import { forgetSettingsEverywhere } from '../settings';
import { countDashboardTotals, listNewestUsers } from './admin.repository';

export interface OutboxMailView {
  id: string;
  to: string;
  subject: string;
  text: string;
  transport: 'smtp' | 'outbox';
  sent_at: string | null;
  error: string | null;
  created_at: string;
}

export async function listRecentMail(ctx: AppContext, filters: { to?: string | undefined; limit: number }): Promise<OutboxMailView[]> {
  const rows = await listOutboxMail(ctx.db, filters);
  return rows.map((r) => ({
    id: r.id,
    to: r.to_address,
    subject: r.subject,
    text: r.text_body,
    transport: r.transport,
    sent_at: r.sent_at ? new Date(r.sent_at).toISOString() : null,
    error: r.last_error ?? r.error,
    created_at: new Date(r.created_at).toISOString(),
  }));
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

function toAdminMail(r: OutboxMailRow): AdminMail {
  return {
    id: r.id,
    to: r.to_address,
    subject: r.subject,
    status: r.status,
    attempts: r.attempts,
    last_error: r.last_error ?? r.error,
    next_attempt_at: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    sent_at: iso(r.sent_at),
    created_at: new Date(r.created_at).toISOString(),
    message_id: r.message_id,
  };
}

/** GET /admin/mail: mail and its delivery state, newest first, optionally in one status ('failed'). */
export async function listMailDelivery(ctx: AppContext, query: AdminMailListQuery): Promise<AdminMail[]> {
  return (await listOutboxMail(ctx.db, { status: query.status, limit: query.limit })).map(toAdminMail);
}

/** POST /admin/mail/{id}/retry: failed mail goes back to the queue with fresh attempts, sent at once. */
export async function retryMail(ctx: AppContext, id: string): Promise<AdminMail> {
  const row = await resendFailedMail(ctx, id);
  if (!row) {
    if (!(await findOutboxMail(ctx.db, id))) throw notFound('Mail not found');
    throw conflict('Only failed mail can be sent again.');
  }
  return toAdminMail(row);
}

/**
 * GET /admin/overview: counters by aggregate SQL (the Dashboard's five and the Cars tab's), the 5
 * newest users and the debug box.
 */
export async function getOverview(ctx: AppContext): Promise<AdminOverview> {
  const [totals, cars, newest] = await Promise.all([countDashboardTotals(ctx.db), countCarsForAdmin(ctx), listNewestUsers(ctx.db, ADMIN_RECENT_USERS)]);
  return {
    counters: {
      ...totals,
      total_cars: cars.total,
      pending_car_verification: cars.pending_verification,
      available_cars: cars.available,
      rented_cars: cars.rented,
      maintenance_cars: cars.maintenance,
    },
    recent_users: newest.map((u) => ({ ...u, created_at: new Date(u.created_at).toISOString() })),
    debug: debugInfo(ctx),
  };
}

/** Modes and versions only: no URL, key or password ever leaves through here. */
function debugInfo(ctx: AppContext): AdminDebugInfo {
  return {
    api_version: apiPackage.version,
    commit: gitCommit(),
    node_version: process.version,
    // connection.ts opens the server database exactly when DATABASE_URL is set.
    database: ctx.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite',
    mail: ctx.mailer.transport === 'smtp' ? 'SMTP' : 'outbox',
    // lib/payments picks Paystack exactly when its secret key is set.
    payments: ctx.env.PAYSTACK_SECRET_KEY ? 'paystack' : 'sandbox',
    uptime_seconds: Math.floor(process.uptime()),
    server_time: ctx.clock.now().toISOString(),
  };
}

let cachedCommit: string | undefined;

/**
 * The deployed commit, read once: GIT_COMMIT when the build sets it (an image has no .git), else
 * the short hash of the checked-out commit; 'unknown' when there is neither.
 */
function gitCommit(): string {
  cachedCommit ??= process.env.GIT_COMMIT?.trim() || readGitCommit();
  return cachedCommit;
}

function readGitCommit(): string {
  try {
    for (let dir = process.cwd(), i = 0; i < 6; i++, dir = path.dirname(dir)) {
      const dotGit = path.join(dir, '.git');
      if (!existsSync(dotGit)) continue;
      // A worktree's .git is a file naming the real folder.
      const gitDir = statSync(dotGit).isDirectory() ? dotGit : path.resolve(dir, readFileSync(dotGit, 'utf8').replace(/^gitdir:\s*/, '').trim());
      const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
      const ref = /^ref:\s*(.+)$/.exec(head)?.[1];
      const hash = ref ? readRef(gitDir, ref) : head;
      return hash && /^[0-9a-f]{7,}$/i.test(hash) ? hash.slice(0, 7) : 'unknown';
    }
  } catch {
    // Commit is informative only; never fail the dashboard for it.
  }
  return 'unknown';
}

function readRef(gitDir: string, ref: string): string | undefined {
  const loose = path.join(gitDir, ref);
  if (existsSync(loose)) return readFileSync(loose, 'utf8').trim();
  const packed = path.join(gitDir, 'packed-refs');
  if (!existsSync(packed)) return undefined;
  const line = readFileSync(packed, 'utf8').split('\n').find((l) => l.trim().endsWith(` ${ref}`));
  return line?.split(' ')[0];
}

/** The caches the server keeps in memory, in the order Clear System Cache reports them. */
export const SERVER_CACHES = ['browse', 'settings'] as const;
export type ServerCache = (typeof SERVER_CACHES)[number];

/**
 * Clear System Cache (document 3, Settings): every instance forgets its public browse pages and its
 * platform settings, so the next request reads the database: this one before the answer, the
 * others within milliseconds (the cache bus, decision 026).
 */
export async function clearServerCaches(ctx: AppContext): Promise<ServerCache[]> {
  await forgetBrowsePages(ctx);
  await forgetSettingsEverywhere(ctx);
  return [...SERVER_CACHES];
}
