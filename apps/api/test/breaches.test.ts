// Security compromises (POPIA s. 22; decision 050) through the routes on the real database: an
// administrator records one (audited), the affected people, and only they, get an email through
// the outbox and a notification, in batches on the job queue, and the record is kept and listed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Breach } from '@karoo/shared';
import { BREACH_NOTICE_BATCH } from '../src/modules/data-protection/breaches';
import { createSignedInUser, createTestApp, createUser, expectError, expectOk, type TestApp } from './helpers';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let t: TestApp;
let admin: Signed;
let customer: Signed;
const BASE = '2030-03-01T08:00:00.000Z';

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(BASE);
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  customer = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
});
afterAll(() => t.close());

const body = (scope: 'all' | 'listed', users: string[] = []) => ({
  summary: 'A backup of the user table was readable from a misconfigured storage bucket for six hours.',
  discovered_at: '2030-02-28T21:15:00+02:00',
  data_categories: ['identity', 'contact'],
  measures: 'The bucket was made private, the backup deleted and every access key rotated.',
  advice: 'Be wary of emails or calls asking for your password or banking details; Karoo never asks for them.',
  scope,
  users,
});
const record = (payload: Record<string, unknown>, headers = admin.headers) => t.app.inject({ method: 'POST', url: '/api/admin/breaches', headers, payload });
const SUBJECT = 'Important: a security compromise affecting your Karoo account';

async function runAllNotices(): Promise<number> {
  let runs = 0;
  while ((await t.ctx.jobs.runDue('breaches.notify')) > 0) runs += 1;
  await t.outbox.drain();
  return runs;
}

describe('recording a security compromise', () => {
  it('tells the listed people by email and in the app, and nobody else', async () => {
    const a = await createUser(t.ctx, { verification_status: 'verified' });
    const b = await createUser(t.ctx, { verification_status: 'verified' });
    const other = await createUser(t.ctx, { verification_status: 'verified' });
    const breach = expectOk<Breach>(await record(body('listed', [a.username, b.email.toUpperCase()])), 201);
    expect(breach).toMatchObject({ scope: 'listed', affected: 2, notified: 0, data_categories: ['identity', 'contact'], recorded_by: admin.user.username });
    expect(await runAllNotices()).toBe(1);
    for (const who of [a, b]) {
      const mail = await t.outbox.latest(who.email);
      expect(mail?.subject).toBe(SUBJECT);
      expect(mail?.text).toMatch(/misconfigured storage bucket/);
      expect(mail?.text).toMatch(/Names and usernames; Email addresses, phone numbers and addresses/);
      expect(mail?.text).toMatch(/every access key rotated/);
      expect(mail?.text).toMatch(/inforegulator\.org\.za/);
      const notices = await t.db.selectFrom('notifications').select(['type', 'title']).where('user_id', '=', who.id).execute();
      expect(notices).toEqual([{ type: 'security_compromise', title: SUBJECT }]);
    }
    expect((await t.outbox.list(other.email)).filter((m) => m.subject === SUBJECT)).toEqual([]);
    expect(await t.db.selectFrom('notifications').select('id').where('user_id', '=', other.id).execute()).toEqual([]);
    expect((await t.outbox.list(admin.user.email)).filter((m) => m.subject === SUBJECT)).toEqual([]);
    // Told once: running the job again tells nobody twice.
    expect(await t.ctx.jobs.runDue('breaches.notify')).toBe(0);
    expect((await t.outbox.list(a.email)).filter((m) => m.subject === SUBJECT)).toHaveLength(1);

    // The record is kept, listed, and audited.
    const listed = expectOk<Breach[]>(await t.app.inject({ method: 'GET', url: '/api/admin/breaches', headers: admin.headers }));
    expect(listed.find((x) => x.id === breach.id)).toMatchObject({ affected: 2, notified: 2 });
    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'breach.recorded').where('target_id', '=', breach.id).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ admin_id: admin.user.id, target_type: 'breach', reason: body('all').summary });
    expect(audit.after).toMatchObject({ affected: 2, scope: 'listed' });
  });

  it('tells everyone, in batches of the queue, even with email notifications off', async () => {
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload: { emailNotifications: false } }));
    for (let i = 0; i < BREACH_NOTICE_BATCH; i += 1) await createUser(t.ctx);
    const users = await t.db.selectFrom('users').select('id').where('deleted_at', 'is', null).execute();
    const breach = expectOk<Breach>(await record(body('all')), 201);
    expect(breach.affected).toBe(users.length);
    expect(await runAllNotices()).toBeGreaterThanOrEqual(1);
    const jobs = await t.ctx.jobs.depth();
    expect(jobs.filter((d) => d.queue === 'breaches.notify' && d.state !== 'failed').reduce((n, d) => n + d.count, 0)).toBe(0);
    const mailed = await t.db.selectFrom('mail_outbox').select('to_address').where('subject', '=', SUBJECT).execute();
    expect(new Set(mailed.map((m) => m.to_address)).size).toBe(users.length);
    const found = expectOk<Breach>(await t.app.inject({ method: 'GET', url: `/api/admin/breaches/${breach.id}`, headers: admin.headers }));
    expect(found.notified).toBe(users.length);
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload: { emailNotifications: true } }));
  });

  it('refuses unknown people, an empty list, and anyone but an administrator', async () => {
    expectError(await record(body('listed', ['nobody-here@example.org'])), 400, /No account has the username or email nobody-here@example\.org/);
    expectError(await record(body('listed', [])), 400);
    expectError(await record({ ...body('all'), summary: 'short' }), 400);
    expectError(await record(body('all'), customer.headers), 403);
    expectError(await t.app.inject({ method: 'GET', url: '/api/admin/breaches', headers: customer.headers }), 403);
    expectError(await t.app.inject({ method: 'GET', url: '/api/admin/breaches/00000000-0000-4000-8000-000000000000', headers: admin.headers }), 404);
  });
});
