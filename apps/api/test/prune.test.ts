// The daily prune (docs/decisions/016-pruning.md): ended sessions, reset and sign-in links go 30
// days after they ended, idle throttles a day after their window (an account's run of consecutive
// failures only when its owner signs in, decision 030), delivered mail after 90 days; everything
// still in use, failed or never sent stays. Safe to run twice or on several instances at once.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inTransaction } from '../src/events/domain-events';
import { PRUNE_CRON, pruneOldRecords } from '../src/prune.job';
import {
  authHeader,
  createTestApp,
  createUser,
  DAY,
  expectError,
  expectOk,
  HOUR,
  login,
  loginResponse,
  MINUTE,
  type TestApp,
  type TestUser,
} from './helpers';

const NOW = new Date('2027-03-15T10:00:00+02:00');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const hash = () => randomBytes(16).toString('hex');

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.ctx);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  t.clock.set(NOW);
});

async function insertSession(ended: { expires_at: Date; revoked_at?: Date }): Promise<string> {
  const row = await t.db
    .insertInto('sessions')
    .values({ user_id: user.id, token_hash: hash(), ...ended })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function insertResetToken(values: { expires_at: Date; used_at?: Date }): Promise<string> {
  const row = await t.db
    .insertInto('password_reset_tokens')
    .values({ user_id: user.id, token_hash: hash(), ...values })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function insertThrottle(values: { window_started_at: Date; wait_until?: Date }): Promise<string> {
  const key = `test:${hash()}`;
  const start = values.window_started_at;
  const wait = values.wait_until ?? start;
  await t.db
    .insertInto('sign_in_throttle')
    .values({ key, failures: 3, window_started_at: start, last_failed_at: start, wait_until: wait, prev_wait_until: start })
    .execute();
  return key;
}

async function insertResetThrottle(grantedAt: Date[]): Promise<string> {
  const key = `test:${hash()}`;
  await t.db.insertInto('reset_request_throttle').values({ key, granted_at: grantedAt }).execute();
  return key;
}

async function insertMail(values: { created_at: Date; sent_at?: Date; error?: string; transport?: 'smtp' | 'outbox' }): Promise<string> {
  const row = await t.db
    .insertInto('mail_outbox')
    .values({ to_address: `${hash()}@example.co.za`, subject: 'Hello', text_body: 'Hello', transport: 'smtp', ...values })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const sessionIds = async () => (await t.db.selectFrom('sessions').select('id').execute()).map((r) => r.id);
const resetTokenIds = async () => (await t.db.selectFrom('password_reset_tokens').select('id').execute()).map((r) => r.id);
const throttleKeys = async () => [
  ...(await t.db.selectFrom('sign_in_throttle').select('key').execute()).map((r) => r.key),
  ...(await t.db.selectFrom('reset_request_throttle').select('key').execute()).map((r) => r.key),
];
const mailIds = async () => (await t.db.selectFrom('mail_outbox').select('id').execute()).map((r) => r.id);

describe('pruneOldRecords', () => {
  it('deletes sessions that expired or were revoked more than 30 days ago; a live session still signs in', async () => {
    const token = await login(t.app, user.username);
    const expired31 = await insertSession({ expires_at: ago(31 * DAY) });
    const revoked31 = await insertSession({ expires_at: ago(DAY), revoked_at: ago(31 * DAY) });
    const expired30 = await insertSession({ expires_at: ago(30 * DAY) });
    const expired29 = await insertSession({ expires_at: ago(29 * DAY) });
    const revoked29 = await insertSession({ expires_at: new Date(NOW.getTime() + DAY), revoked_at: ago(29 * DAY) });

    const counts = await pruneOldRecords(t.ctx);

    expect(counts.sessions).toBe(2);
    const left = await sessionIds();
    expect(left).not.toContain(expired31);
    expect(left).not.toContain(revoked31);
    expect(left).toEqual(expect.arrayContaining([expired30, expired29, revoked29]));
    expectOk(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: authHeader(token) }));
  });

  it('deletes reset links used or expired more than 30 days ago; a live link still works', async () => {
    expectOk(await t.app.inject({ method: 'POST', url: '/api/user/forgot-password', payload: { email: user.email } }));
    const liveToken = await t.outbox.resetToken(user.email);
    const used31 = await insertResetToken({ expires_at: ago(31 * DAY - HOUR), used_at: ago(31 * DAY) });
    const expired31 = await insertResetToken({ expires_at: ago(31 * DAY) });
    const used29 = await insertResetToken({ expires_at: ago(29 * DAY - HOUR), used_at: ago(29 * DAY) });
    const expired29 = await insertResetToken({ expires_at: ago(29 * DAY) });

    const counts = await pruneOldRecords(t.ctx);

    expect(counts.resetTokens).toBe(2);
    const left = await resetTokenIds();
    expect(left).not.toContain(used31);
    expect(left).not.toContain(expired31);
    expect(left).toEqual(expect.arrayContaining([used29, expired29]));
    expect(left).toHaveLength(3);
    expectOk(await t.app.inject({ method: 'GET', url: `/api/user/verify-reset-token/${encodeURIComponent(liveToken)}` }));
  });

  it('deletes throttles whose window and wait ended more than a day ago; a live wait still refuses sign-in', async () => {
    const waiting = await createUser(t.ctx);
    for (let i = 0; i < 5; i++) expectError(await loginResponse(t.app, waiting.username, 'wrong-password'), 401);
    // The longest sign-in window is a day: a window that started two days and a minute ago ended a day ago.
    const idle = await insertThrottle({ window_started_at: ago(2 * DAY + MINUTE) });
    const waitEndedLongAgo = await insertThrottle({ window_started_at: ago(3 * DAY), wait_until: ago(2 * DAY) });
    const windowEndedToday = await insertThrottle({ window_started_at: ago(2 * DAY - MINUTE) });
    const waitEndedToday = await insertThrottle({ window_started_at: ago(3 * DAY), wait_until: ago(12 * HOUR) });
    // A reset throttle counts an hour: its newest grant a day and an hour ago, it counts nothing since a day.
    const resetIdle = await insertResetThrottle([ago(2 * DAY), ago(DAY + HOUR + MINUTE)]);
    const resetToday = await insertResetThrottle([ago(2 * DAY), ago(DAY + HOUR - MINUTE)]);

    const counts = await pruneOldRecords(t.ctx);

    expect(counts.throttles).toBe(3);
    const left = await throttleKeys();
    expect(left).not.toContain(idle);
    expect(left).not.toContain(waitEndedLongAgo);
    expect(left).not.toContain(resetIdle);
    expect(left).toEqual(expect.arrayContaining([windowEndedToday, waitEndedToday, resetToday, `account:user:${waiting.id}`]));
    expectError(await loginResponse(t.app, waiting.username), 429, /Too many failed sign-in attempts/);
  });

  it('deletes sign-in links used or expired more than 30 days ago, and consecutive-failure counts of unknown names a day after their last failure; an account\'s count stays until its owner signs in', async () => {
    const link = async (values: { expires_at: Date; used_at?: Date }) =>
      (await t.db.insertInto('sign_in_links').values({ user_id: user.id, token_hash: hash(), ...values }).returning('id').executeTakeFirstOrThrow()).id;
    const used31 = await link({ expires_at: ago(31 * DAY - MINUTE), used_at: ago(31 * DAY) });
    const expired31 = await link({ expires_at: ago(31 * DAY) });
    const expired29 = await link({ expires_at: ago(29 * DAY) });
    const run = async (key: string, lastFailedAt: Date) => {
      await t.db
        .insertInto('sign_in_throttle')
        .values({ key, failures: 100, window_started_at: ago(400 * DAY), last_failed_at: lastFailedAt, wait_until: new Date(0), prev_wait_until: new Date(0) })
        .execute();
      return key;
    };
    const capped = await createUser(t.ctx);
    const accountRun = await run(`consecutive:user:${capped.id}`, ago(400 * DAY));
    const idleNameRun = await run(`consecutive:name:${hash()}`, ago(2 * DAY + MINUTE));
    const liveNameRun = await run(`consecutive:name:${hash()}`, ago(2 * DAY - MINUTE));

    const counts = await pruneOldRecords(t.ctx);

    expect(counts.signInLinks).toBe(2);
    const links = (await t.db.selectFrom('sign_in_links').select('id').execute()).map((r) => r.id);
    expect(links).toContain(expired29);
    expect(links).not.toContain(used31);
    expect(links).not.toContain(expired31);
    const left = await throttleKeys();
    expect(left).toEqual(expect.arrayContaining([accountRun, liveNameRun]));
    expect(left).not.toContain(idleNameRun);
    // A year later the account is still capped: only its owner ends the run.
    expectError(await loginResponse(t.app, capped.username), 429, /password sign-in is paused/);
  });

  it('deletes mail delivered more than 90 days ago and keeps failed and never-sent mail however old', async () => {
    const sent91 = await insertMail({ created_at: ago(91 * DAY), sent_at: ago(91 * DAY) });
    const sent89 = await insertMail({ created_at: ago(89 * DAY), sent_at: ago(89 * DAY) });
    const failed = await insertMail({ created_at: ago(400 * DAY), error: 'Connection refused' });
    const neverSent = await insertMail({ created_at: ago(400 * DAY), transport: 'outbox' });

    const counts = await pruneOldRecords(t.ctx);

    expect(counts.mail).toBe(1);
    const left = await mailIds();
    expect(left).not.toContain(sent91);
    expect(left).toEqual(expect.arrayContaining([sent89, failed, neverSent]));
  });

  it('deletes the browse index’s change notes older than a day (by the database clock) and keeps the rest', async () => {
    const note = async (age: string) => {
      const { rows } = await sql<{ id: string }>`INSERT INTO browse_changes (car_id, changed_at) VALUES (gen_random_uuid(), now() - ${age}::interval) RETURNING id::text`.execute(t.ctx.db);
      return rows[0]!.id;
    };
    const [old, recent] = [await note('25 hours'), await note('23 hours')];
    const counts = await pruneOldRecords(t.ctx);
    expect(counts.browseChanges).toBeGreaterThanOrEqual(1);
    const { rows } = await sql<{ id: string }>`SELECT id::text FROM browse_changes WHERE id IN (${old}, ${recent})`.execute(t.ctx.db);
    expect(rows.map((r) => r.id)).toEqual([recent]);
  });

  it('is idempotent: a second run deletes nothing and leaves the same rows', async () => {
    await pruneOldRecords(t.ctx);
    const before = { sessions: await sessionIds(), tokens: await resetTokenIds(), throttles: await throttleKeys(), mail: await mailIds() };
    expect(await pruneOldRecords(t.ctx)).toEqual({ sessions: 0, resetTokens: 0, signInLinks: 0, throttles: 0, mail: 0, browseChanges: 0, liveEvents: 0 });
    expect({ sessions: await sessionIds(), tokens: await resetTokenIds(), throttles: await throttleKeys(), mail: await mailIds() }).toEqual(before);
  });

  it('is safe on several instances at once: each old row is deleted exactly once', async () => {
    await Promise.all([
      insertSession({ expires_at: ago(40 * DAY) }),
      insertSession({ expires_at: ago(40 * DAY) }),
      insertResetToken({ expires_at: ago(40 * DAY) }),
      insertThrottle({ window_started_at: ago(5 * DAY) }),
      insertMail({ created_at: ago(100 * DAY), sent_at: ago(100 * DAY) }),
    ]);
    const runs = await Promise.all([pruneOldRecords(t.ctx), pruneOldRecords(t.ctx), pruneOldRecords(t.ctx)]);
    const total = (key: keyof (typeof runs)[number]) => runs.reduce((sum, run) => sum + run[key], 0);
    expect({ sessions: total('sessions'), resetTokens: total('resetTokens'), throttles: total('throttles'), mail: total('mail') }).toEqual({
      sessions: 2,
      resetTokens: 1,
      throttles: 1,
      mail: 1,
    });
  });
});

describe('the prune job', () => {
  it('is scheduled once a day on the job queue, and its job prunes', async () => {
    const schedules = await sql<{ name: string; cron: string; timezone: string }>`SELECT name, cron, timezone FROM ${sql.table(`${t.ctx.jobs.schema}.schedule`)}`.execute(t.db);
    expect(schedules.rows).toContainEqual({ name: 'records.prune', cron: PRUNE_CRON, timezone: 'Africa/Johannesburg' });

    const old = await insertSession({ expires_at: ago(60 * DAY) });
    // The job as the schedule sends it, run as a worker would.
    await inTransaction(t.ctx, (tx) => t.ctx.jobs.enqueue(tx, 'records.prune', {}));
    expect(await t.ctx.jobs.runDue('records.prune')).toBe(1);
    expect(await sessionIds()).not.toContain(old);
    expect(await t.ctx.jobs.runDue('records.prune')).toBe(0);
  });
});
