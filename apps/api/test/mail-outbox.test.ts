// Mail through the outbox (issue 12; docs/decisions/025-mail-outbox.md): a notification and its
// email commit (or roll back) with the change; the mail worker sends with retries and backoff,
// exactly once even with two workers on one database, and gives up to 'failed', which the admin
// route lists and can send again. A local smtp-server counts what really arrives.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { AdminMail } from '@karoo/shared';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../src/context';
import { inTransaction } from '../src/events/domain-events';
import { drainOutbox, MAIL_LEASE_MS, MAIL_MAX_ATTEMPTS, MAIL_RETRY_DELAYS_MS, startMailWorker } from '../src/jobs/mail.worker';
import { createMailer } from '../src/lib/mail';
import { claimDueMail } from '../src/lib/mail-outbox.repository';
import { createSignedInUser, createTestApp, createUser, expectError, expectOk, SECOND, type TestApp } from './helpers';

/** What the SMTP server took (by Message-ID) and how many it refused. */
const accepted: { messageId: string; to: string; subject: string }[] = [];
let refused = 0;
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
  // Each test starts from a quiet outbox: nothing due from an earlier test.
  await t.db.deleteFrom('mail_outbox').execute();
  accepted.length = 0;
  refused = 0;
  refuseNext = 0;
});

const timesAccepted = (messageId: string | null) => accepted.filter((m) => m.messageId === messageId).length;
const mailTo = async (email: string) => (await t.outbox.list(email))[0]!;
const queue = (to: string, subject = 'Hello') => t.ctx.mailer.send({ to, subject, text: `Hi ${to}` });

/** A second API instance on the same database: its own mailer (SMTP connection) and worker. */
function secondInstance(): AppContext {
  return { ...t.ctx, mailer: createMailer({ db: t.db, log: pino({ level: 'silent' }), smtpUrl, from: t.ctx.env.MAIL_FROM, clock: t.clock }) };
}

describe('the notification and its email commit with the change', () => {
  it('writes both in the transaction of the change', async () => {
    const user = await createUser(t.ctx, { verification_status: 'pending_verification' });
    await inTransaction(t.ctx, async (tx) => {
      tx.emit({ type: 'user.verified', user: { id: user.id, username: user.username }, before: 'pending_verification' });
    });
    const notices = await t.db.selectFrom('notifications').select('title').where('user_id', '=', user.id).execute();
    expect(notices.map((n) => n.title)).toEqual(['Account verified']);
    expect(await mailTo(user.email)).toMatchObject({ subject: 'Account verified', status: 'pending', attempts: 0 });
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
});

describe('the mail worker', () => {
  it('retries a refused message after 30 s, then 2 min, and sends it exactly once', async () => {
    refuseNext = 2;
    const user = await createUser(t.ctx);
    expectOk(await t.app.inject({ method: 'POST', url: '/api/user/forgot-password', payload: { email: user.email } }));

    expect(await t.outbox.drain()).toBe(1);
    let mail = await mailTo(user.email);
    expect(mail).toMatchObject({ status: 'pending', attempts: 1, sent_at: null });
    expect(mail.error).toContain('Mailbox busy');

    // Not due before its backoff.
    expect(await t.outbox.drain()).toBe(0);
    t.clock.advance(MAIL_RETRY_DELAYS_MS[0] - SECOND);
    expect(await t.outbox.drain()).toBe(0);
    t.clock.advance(SECOND);
    expect(await t.outbox.drain()).toBe(1);
    expect(await mailTo(user.email)).toMatchObject({ status: 'pending', attempts: 2 });

    t.clock.advance(MAIL_RETRY_DELAYS_MS[1] - SECOND);
    expect(await t.outbox.drain()).toBe(0);
    t.clock.advance(SECOND);
    expect(await t.outbox.drain()).toBe(1);

    mail = await mailTo(user.email);
    expect(mail).toMatchObject({ status: 'sent', attempts: 3 });
    expect(mail.sent_at).not.toBeNull();
    expect(refused).toBe(2);
    expect(timesAccepted(mail.message_id)).toBe(1);
    expect(accepted).toHaveLength(1);

    t.clock.advance(MAIL_RETRY_DELAYS_MS.at(-1)!);
    expect(await t.outbox.drain()).toBe(0);
    expect(accepted).toHaveLength(1);
  });

  it('sends each message exactly once when two instances drain the outbox at the same time', async () => {
    const recipients = Array.from({ length: 12 }, (_, i) => `pair-${i}-${randomUUID().slice(0, 8)}@example.co.za`);
    for (const to of recipients) await queue(to);
    const other = secondInstance();
    try {
      const [mine, theirs] = await Promise.all([drainOutbox(t.ctx), drainOutbox(other)]);
      expect(mine + theirs).toBe(recipients.length);
    } finally {
      other.mailer.close();
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

  it('retakes a message whose worker died only after its lease has passed', async () => {
    const to = `lease-${randomUUID().slice(0, 8)}@example.co.za`;
    await queue(to);
    // An instance claims it and dies before sending.
    const now = t.clock.now();
    expect(await claimDueMail(t.db, now, new Date(now.getTime() + MAIL_LEASE_MS), 5)).toHaveLength(1);

    expect(await t.outbox.drain()).toBe(0);
    t.clock.advance(MAIL_LEASE_MS);
    expect(await t.outbox.drain()).toBe(1);
    const mail = await mailTo(to);
    expect(mail).toMatchObject({ status: 'sent', attempts: 2 });
    expect(timesAccepted(mail.message_id)).toBe(1);
  });

  it('starts, sends mail right after the commit that queued it, and stops', async () => {
    // A poll far longer than the test: only the wake-up after the commit can send it in time.
    const stop = startMailWorker(t.ctx, pino({ level: 'silent' }), { pollMs: 60 * 60 * SECOND });
    try {
      const user = await createUser(t.ctx, { verification_status: 'pending_verification' });
      await inTransaction(t.ctx, async (tx) => {
        tx.emit({ type: 'user.verified', user: { id: user.id, username: user.username }, before: 'pending_verification' });
      });
      await vi.waitFor(() => expect(accepted.map((m) => m.to)).toContain(user.email), { timeout: 5000, interval: 20 });
      await vi.waitFor(async () => expect(await mailTo(user.email)).toMatchObject({ status: 'sent', attempts: 1 }), { timeout: 5000, interval: 20 });
    } finally {
      await stop();
    }
  });
});

describe('failed mail, for the admin', () => {
  it(`gives up after ${MAIL_MAX_ATTEMPTS} attempts; the admin route lists it and Retry sends it`, async () => {
    const admin = await createSignedInUser(t.app, t.ctx, { role: 'admin' });
    const customer = await createSignedInUser(t.app, t.ctx);
    const to = `failing-${randomUUID().slice(0, 8)}@example.co.za`;
    refuseNext = 1000;
    await queue(to, 'Your booking');

    expect(await t.outbox.drain()).toBe(1);
    for (const delay of MAIL_RETRY_DELAYS_MS) {
      t.clock.advance(delay);
      expect(await t.outbox.drain()).toBe(1);
    }
    let mail = await mailTo(to);
    expect(mail).toMatchObject({ status: 'failed', attempts: MAIL_MAX_ATTEMPTS, sent_at: null });
    expect(refused).toBe(MAIL_MAX_ATTEMPTS);
    t.clock.advance(MAIL_RETRY_DELAYS_MS.at(-1)!);
    expect(await t.outbox.drain()).toBe(0);

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
