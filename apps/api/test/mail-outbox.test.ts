// Mail through the outbox (issue 12; docs/decisions/025-mail-outbox.md, 038-one-job-queue.md): a
// notification, its email and the email's 'mail.send' job commit (or roll back) with the change; the
// job sends with retries and exponential backoff, always with the row's Message-ID, exactly once
// even with two queues on one database, and gives up to 'failed' (its job dead-lettered), which the
// admin route lists and can send again. A local smtp-server counts what really arrives.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { AdminMail } from '@karoo/shared';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../src/context';
import { sql, type KyselyPlugin } from 'kysely';
import { inTransaction } from '../src/events/domain-events';
import { MAIL_MAX_ATTEMPTS, MAIL_RETRY, MAIL_TIMEOUT_SECONDS, mailJob } from '../src/jobs/mail.job';
import { createJobQueue, type JobDefinition, type JobQueue, type QueuedJob } from '../src/jobs/queue';
import { createMailer, queueMail, sendMail } from '../src/lib/mail';
import { startOutboxMailAttempt } from '../src/lib/mail-outbox.repository';
import { createSignedInUser, createTestApp, createUser, expectError, expectOk, SECOND, type TestApp } from './helpers';

/** What the SMTP server took (by Message-ID) and how many it refused, and the Message-IDs it refused. */
const accepted: { messageId: string; to: string; subject: string }[] = [];
let refused = 0;
const refusedIds: string[] = [];
/** The server refuses this many of the next messages (a temporary failure, 451). */
let refuseNext = 0;

let server: SMTPServer;
let smtpUrl: string;
let t: TestApp;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          if (refuseNext > 0) {
            refuseNext -= 1;
            refused += 1;
            refusedIds.push(mail.messageId ?? '');
            callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
            return;
          }
          const to = Array.isArray(mail.to) ? mail.to : [mail.to];
          accepted.push({ messageId: mail.messageId ?? '', to: to.flatMap((a) => a?.value.map((v) => v.address)).join(','), subject: mail.subject ?? '' });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  t = await createTestApp({ smtpUrl });
});

afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

beforeEach(async () => {
  // Each test starts from a quiet outbox and queue: nothing due from an earlier test.
  await t.db.deleteFrom('mail_outbox').execute();
  await sql`DELETE FROM ${sql.table(`${t.ctx.jobs.schema}.job`)}`.execute(t.db);
  accepted.length = 0;
  refused = 0;
  refusedIds.length = 0;
  refuseNext = 0;
});

const timesAccepted = (messageId: string | null) => accepted.filter((m) => m.messageId === messageId).length;
const mailTo = async (email: string) => (await t.outbox.list(email))[0]!;
const queue = (to: string, subject = 'Hello') => sendMail(t.ctx, { to, subject, text: `Hi ${to}` });

const queueMailIn = (tx: Parameters<typeof queueMail>[1], to: string) => queueMail(t.ctx, tx, { to, subject: 'Hello', text: `Hi ${to}` });

/** The 'mail.send' jobs of one outbox row, in any state, from the queue's own table. */
async function jobsOf(mailId: string): Promise<{ state: string }[]> {
  const { rows } = await sql<{ state: string }>`SELECT state FROM ${sql.table(`${t.ctx.jobs.schema}.job`)} WHERE data->>'mailId' = ${mailId}`.execute(t.db);
  return rows;
}

/**
 * A second API instance on the same database: its own mailer (SMTP connection) and its own job
 * queue (a pg-boss of its own), running `job` (the mail job, unless the test gives another).
 */
async function secondInstance(job?: (ctx: AppContext) => JobDefinition<'mail.send'>): Promise<{ ctx: AppContext; jobs: JobQueue; close(): Promise<void> }> {
  const jobs = createJobQueue({ pool: t.database.pool, kind: t.database.kind, schema: t.ctx.jobs.schema, log: pino({ level: 'silent' }), testClock: t.clock });
  const ctx: AppContext = { ...t.ctx, jobs, mailer: createMailer({ log: pino({ level: 'silent' }), smtpUrl, from: t.ctx.env.MAIL_FROM }) };
  jobs.define((job ?? mailJob)(ctx));
  await jobs.start();
  return {
    ctx,
    jobs,
    close: async () => {
      await jobs.stop();
      ctx.mailer.close();
    },
  };
}

describe('the notification and its email commit with the change', () => {
  it('writes both in the transaction of the change', async () => {
    const user = await createUser(t.ctx, { verification_status: 'pending_verification' });
    await inTransaction(t.ctx, async (tx) => {
      tx.emit({ type: 'user.verified', user: { id: user.id, username: user.username }, before: 'pending_verification' });
    });
    const notices = await t.db.selectFrom('notifications').select('title').where('user_id', '=', user.id).execute();
    expect(notices.map((n) => n.title)).toEqual(['Account verified']);
    const mail = await mailTo(user.email);
    expect(mail).toMatchObject({ subject: 'Account verified', status: 'pending', attempts: 0 });
    expect(await jobsOf(mail.id)).toEqual([{ state: 'created' }]);
  });

  it('writes neither when the change rolls back', async () => {
    const user = await createUser(t.ctx, { verification_status: 'pending_verification' });
    const ghost = { id: randomUUID(), car_username: 'ghost-car', car_make: 'Toyota', car_model: 'Corolla', owner_id: randomUUID() };
    // The first event notifies (and mails) the user; the second fails inside the same transaction
    // (its owner does not exist), so the whole change rolls back.
    await expect(
      inTransaction(t.ctx, async (tx) => {
        tx.emit({ type: 'user.verified', user: { id: user.id, username: user.username }, before: 'pending_verification' });
        tx.emit({ type: 'car.verified', car: ghost, before: 'pending' });
      }),
    ).rejects.toThrow();
    expect(await t.db.selectFrom('notifications').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await t.outbox.list(user.email)).toEqual([]);
    expect(await t.outbox.drain()).toBe(0);
    expect(accepted).toEqual([]);
  });

  it('a job enqueued in a transaction that rolls back never exists, so it never runs', async () => {
    const to = `rolled-back-${randomUUID().slice(0, 8)}@example.co.za`;
    let mailId = '';
    await expect(
      inTransaction(t.ctx, async (tx) => {
        mailId = await queueMailIn(tx, to);
        // Inside the transaction both exist...
        expect(await tx.db.selectFrom('mail_outbox').select('id').where('id', '=', mailId).execute()).toHaveLength(1);
        throw new Error('the change fails after its mail was queued');
      }),
    ).rejects.toThrow('the change fails');
    // ...and after the rollback neither does: no row, no job, nothing sent, even much later.
    expect(mailId).not.toBe('');
    expect(await t.outbox.list(to)).toEqual([]);
    expect(await jobsOf(mailId)).toEqual([]);
    t.clock.advance(MAIL_RETRY.maxDelaySeconds * SECOND);
    expect(await t.outbox.drain()).toBe(0);
    expect(accepted).toEqual([]);
  });
});

/** karoo_jobs_total of the mail queue, by outcome, as /metrics reports it now. */
async function mailRuns(): Promise<Record<'completed' | 'retried' | 'failed', number>> {
  const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
  const read = (outcome: string) => Number(new RegExp(`^karoo_jobs_total\\{queue="mail\\.send",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
  return { completed: read('completed'), retried: read('retried'), failed: read('failed') };
}

/** The soonest and the latest the n-th retry can come after a failed attempt (backoff with jitter). */
const retryWindowMs = (n: number) => {
  const soonest = Math.min(MAIL_RETRY.maxDelaySeconds, MAIL_RETRY.delaySeconds * 2 ** (n - 1));
  return { soonest: soonest * SECOND, latest: Math.min(MAIL_RETRY.maxDelaySeconds, 2 * soonest) * SECOND };
};

describe('the mail job', () => {
  it('retries a refused message with exponential backoff, with the same Message-ID, and sends it exactly once', async () => {
    refuseNext = 2;
    const user = await createUser(t.ctx);
    expectOk(await t.app.inject({ method: 'POST', url: '/api/user/forgot-password', payload: { email: user.email } }));

    expect(await t.outbox.drain()).toBe(1);
    let mail = await mailTo(user.email);
    expect(mail).toMatchObject({ status: 'pending', attempts: 1, sent_at: null });
    expect(mail.error).toContain('Mailbox busy');

    // Not due before its backoff: 30 to 60 s after the first attempt, then 60 to 120 s.
    for (const n of [1, 2]) {
      const window = retryWindowMs(n);
      expect(await t.outbox.drain()).toBe(0);
      t.clock.advance(window.soonest - SECOND);
      expect(await t.outbox.drain()).toBe(0);
      t.clock.advance(window.latest - window.soonest + SECOND);
      expect(await t.outbox.drain()).toBe(1);
    }

    mail = await mailTo(user.email);
    expect(mail).toMatchObject({ status: 'sent', attempts: 3 });
    expect(mail.sent_at).not.toBeNull();
    expect(refused).toBe(2);
    expect(refusedIds).toEqual([mail.message_id, mail.message_id]);
    expect(timesAccepted(mail.message_id)).toBe(1);
    expect(accepted).toHaveLength(1);
    expect(await jobsOf(mail.id)).toEqual([{ state: 'completed' }]);

    t.clock.advance(MAIL_RETRY.maxDelaySeconds * SECOND);
    expect(await t.outbox.drain()).toBe(0);
    expect(accepted).toHaveLength(1);
  });

  it('sends each message exactly once when two instances run the queue at the same time', async () => {
    const recipients = Array.from({ length: 12 }, (_, i) => `pair-${i}-${randomUUID().slice(0, 8)}@example.co.za`);
    for (const to of recipients) await queue(to);
    const other = await secondInstance();
    try {
      const [mine, theirs] = await Promise.all([t.outbox.drain(), other.jobs.runDue('mail.send')]);
      expect(mine + theirs).toBe(recipients.length);
    } finally {
      await other.close();
    }
    expect(accepted).toHaveLength(recipients.length);
    const rows = await t.db.selectFrom('mail_outbox').select(['status', 'attempts', 'message_id']).execute();
    expect(rows).toHaveLength(recipients.length);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'sent', attempts: 1 });
      expect(timesAccepted(row.message_id)).toBe(1);
    }
    expect(new Set(accepted.map((m) => m.to))).toEqual(new Set(recipients));
  });

  it('tries a message again only after the timeout of a worker that died sending it, with the same Message-ID', async () => {
    const to = `died-${randomUUID().slice(0, 8)}@example.co.za`;
    await queue(to);
    // Another instance takes the job, counts its attempt and dies before the SMTP server answers.
    const dying = await secondInstance((ctx) => ({ ...mailJob(ctx), run: (job) => startOutboxMailAttempt(ctx.db, job.data.mailId, new Date(ctx.clock.now().getTime() + MAIL_TIMEOUT_SECONDS * SECOND)).then(() => new Promise<void>(() => {})) }));
    void dying.jobs.runDue('mail.send');
    await vi.waitFor(async () => expect((await mailTo(to)).attempts).toBe(1), { timeout: 5000, interval: 20 });
    await dying.close();

    // Not while its attempt could still be running...
    t.clock.advance(MAIL_TIMEOUT_SECONDS * SECOND - SECOND);
    expect(await t.outbox.drain()).toBe(0);
    expect(await jobsOf((await mailTo(to)).id)).toEqual([{ state: 'active' }]);
    // ...then it counts as a failed attempt, retried after the first backoff.
    t.clock.advance(2 * SECOND);
    await t.ctx.jobs.supervise('mail.send');
    expect(await jobsOf((await mailTo(to)).id)).toEqual([{ state: 'retry' }]);
    t.clock.advance(retryWindowMs(1).latest);
    expect(await t.outbox.drain()).toBe(1);
    const mail = await mailTo(to);
    expect(mail).toMatchObject({ status: 'sent', attempts: 2 });
    expect(timesAccepted(mail.message_id)).toBe(1);
  });

  it('a worker sends mail right after the commit that queued it, then stops', async () => {
    // The test clock stands still, so the worker's poll never comes: only the wake-up after the
    // commit can send it.
    await t.ctx.jobs.startWorkers();
    try {
      const user = await createUser(t.ctx, { verification_status: 'pending_verification' });
      await inTransaction(t.ctx, async (tx) => {
        tx.emit({ type: 'user.verified', user: { id: user.id, username: user.username }, before: 'pending_verification' });
      });
      await vi.waitFor(() => expect(accepted.map((m) => m.to)).toContain(user.email), { timeout: 5000, interval: 20 });
      await vi.waitFor(async () => expect(await mailTo(user.email)).toMatchObject({ status: 'sent', attempts: 1 }), { timeout: 5000, interval: 20 });
    } finally {
      await t.ctx.jobs.stop();
      await t.ctx.jobs.start();
    }
  });
});

describe('a database connection lost right after the SMTP server took a message', () => {
  /** 57P01, as PostgreSQL answers on a backend terminated under the query. */
  const terminated = () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

  /**
   * The mail job of an instance whose database connection drops once the SMTP server has taken a
   * message: the next `drops` updates of mail_outbox fail as a terminated backend's would.
   */
  function droppingInstance(drops: number, options: { recordWindowMs?: number } = {}) {
    let failing = 0;
    let dropsAfterDelivery = drops;
    const plugin: KyselyPlugin = {
      transformQuery(args) {
        if (failing > 0 && args.node.kind === 'UpdateQueryNode') {
          failing -= 1;
          throw terminated();
        }
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const mailer = createMailer({ log: pino({ level: 'silent' }), smtpUrl, from: t.ctx.env.MAIL_FROM });
    const ctx: AppContext = {
      ...t.ctx,
      db: t.db.withPlugin(plugin),
      mailer: { ...mailer, transport: mailer.transport, deliver: async (mail) => { await mailer.deliver(mail); failing = dropsAfterDelivery; } },
    };
    const warnings: string[] = [];
    const log = { ...pino({ level: 'silent' }), warn: (_details: unknown, message: string) => warnings.push(message) } as unknown as QueuedJob<'mail.send'>['log'];
    const job = mailJob(ctx, options);
    return {
      warnings,
      run: (mailId: string, attempt = 1) => {
        failing = 0;
        return job.run({ id: randomUUID(), name: 'mail.send', data: { mailId }, attempt, isLastAttempt: false, log });
      },
      /** The database answers again. */
      heal: () => {
        dropsAfterDelivery = 0;
      },
      close: () => mailer.close(),
    };
  }

  it('records it sent once the database answers again, and never sends it twice', async () => {
    const to = `dropped-${randomUUID().slice(0, 8)}@example.co.za`;
    const id = await queue(to);
    const instance = droppingInstance(3);
    try {
      // pg-boss would retry a failed attempt: do as it would, on the same instance.
      await instance.run(id).catch(() => instance.run(id, 2));
    } finally {
      instance.close();
    }
    const mail = await mailTo(to);
    expect(mail).toMatchObject({ status: 'sent', attempts: 1 });
    expect(timesAccepted(mail.message_id)).toBe(1);
  });

  it('past the window: a retry on the same instance records it without sending; on another instance it is sent again, with the same Message-ID', async () => {
    const toSame = `same-${randomUUID().slice(0, 8)}@example.co.za`;
    const toOther = `other-${randomUUID().slice(0, 8)}@example.co.za`;
    const same = await queue(toSame);
    const other = await queue(toOther);
    // The database stays away longer than the window (300 ms here, 60 s in production).
    const instance = droppingInstance(Number.POSITIVE_INFINITY, { recordWindowMs: 300 });
    const another = droppingInstance(0);
    try {
      await expect(instance.run(same)).rejects.toThrow(/terminating connection/);
      await expect(instance.run(other)).rejects.toThrow(/terminating connection/);
      expect(await mailTo(toSame)).toMatchObject({ status: 'pending', attempts: 1 });
      instance.heal();
      // The instance that delivered it runs the retry: it remembers, records it and sends nothing.
      await instance.run(same, 2);
      // Another instance runs the other's retry: it cannot know the server took it, and sends it again.
      await another.run(other, 2);
    } finally {
      instance.close();
      another.close();
    }
    const sameMail = await mailTo(toSame);
    expect(sameMail).toMatchObject({ status: 'sent', attempts: 1 });
    expect(timesAccepted(sameMail.message_id)).toBe(1);
    const otherMail = await mailTo(toOther);
    expect(otherMail).toMatchObject({ status: 'sent', attempts: 2 });
    expect(timesAccepted(otherMail.message_id)).toBe(2);
    expect(another.warnings).toEqual([expect.stringMatching(/earlier attempt ended without recording its outcome/)]);
  });
});

describe('failed mail, for the admin', () => {
  it(`gives up after ${MAIL_MAX_ATTEMPTS} attempts; the admin route lists it and Retry sends it`, async () => {
    const admin = await createSignedInUser(t.app, t.ctx, { role: 'admin' });
    const customer = await createSignedInUser(t.app, t.ctx);
    const to = `failing-${randomUUID().slice(0, 8)}@example.co.za`;
    const runsBefore = await mailRuns();
    refuseNext = 1000;
    await queue(to, 'Your booking');

    expect(await t.outbox.drain()).toBe(1);
    for (let n = 1; n < MAIL_MAX_ATTEMPTS; n += 1) {
      t.clock.advance(retryWindowMs(n).latest);
      expect(await t.outbox.drain()).toBe(1);
    }
    let mail = await mailTo(to);
    expect(mail).toMatchObject({ status: 'failed', attempts: MAIL_MAX_ATTEMPTS, sent_at: null });
    expect(refused).toBe(MAIL_MAX_ATTEMPTS);
    // Every attempt carried the row's one Message-ID.
    expect(new Set(refusedIds)).toEqual(new Set([mail.message_id]));
    t.clock.advance(MAIL_RETRY.maxDelaySeconds * SECOND);
    expect(await t.outbox.drain()).toBe(0);
    // Its job failed and a copy waits in the dead-letter queue; /metrics says so.
    expect(await jobsOf(mail.id)).toEqual(expect.arrayContaining([{ state: 'failed' }, { state: 'created' }]));
    const runs = await mailRuns();
    expect(runs.retried - runsBefore.retried).toBe(MAIL_MAX_ATTEMPTS - 1);
    expect(runs.failed - runsBefore.failed).toBe(1);
    expect(runs.completed - runsBefore.completed).toBe(0);
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('karoo_job_queue_depth{queue="mail.send",state="failed"} 1');
    expect(metrics).toContain('karoo_job_queue_depth{queue="mail.send.dead",state="queued"} 1');

    const failed = expectOk<AdminMail[]>(await t.app.inject({ method: 'GET', url: '/api/admin/mail?status=failed', headers: admin.headers }));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ id: mail.id, to, subject: 'Your booking', status: 'failed', attempts: MAIL_MAX_ATTEMPTS, next_attempt_at: null, sent_at: null });
    expect(failed[0]!.last_error).toContain('Mailbox busy');
    expect(expectOk<AdminMail[]>(await t.app.inject({ method: 'GET', url: '/api/admin/mail?status=sent', headers: admin.headers }))).toEqual([]);
    expectError(await t.app.inject({ method: 'GET', url: '/api/admin/mail?status=lost', headers: admin.headers }), 400);
    expectError(await t.app.inject({ method: 'GET', url: '/api/admin/mail?status=failed', headers: customer.headers }), 403);
    expectError(await t.app.inject({ method: 'GET', url: '/api/admin/mail' }), 401);
    expectError(await t.app.inject({ method: 'POST', url: `/api/admin/mail/${mail.id}/retry`, headers: customer.headers }), 403);

    refuseNext = 0;
    const retried = await t.app.inject({ method: 'POST', url: `/api/admin/mail/${mail.id}/retry`, headers: admin.headers });
    expect(retried.json()).toMatchObject({ success: true, message: 'Mail queued to be sent again', data: { id: mail.id, status: 'pending', attempts: 0 } });
    expect(await t.outbox.drain()).toBe(1);
    mail = await mailTo(to);
    expect(mail).toMatchObject({ status: 'sent', attempts: 1 });
    expect(timesAccepted(mail.message_id)).toBe(1);
    expect(expectOk<AdminMail[]>(await t.app.inject({ method: 'GET', url: '/api/admin/mail?status=failed', headers: admin.headers }))).toEqual([]);

    // Only failed mail is sent again; an unknown id is not found.
    expectError(await t.app.inject({ method: 'POST', url: `/api/admin/mail/${mail.id}/retry`, headers: admin.headers }), 409);
    expectError(await t.app.inject({ method: 'POST', url: `/api/admin/mail/${randomUUID()}/retry`, headers: admin.headers }), 404);
    const malformed = await t.app.inject({ method: 'POST', url: '/api/admin/mail/not-an-id/retry', headers: admin.headers });
    expect(malformed.statusCode).toBeGreaterThanOrEqual(400);
    expect(malformed.statusCode).toBeLessThan(500);
  });
});
