// Server-kept notifications (decisions.md section 3): own list, newest first; mark read; clear.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '@karoo/shared';
import { inTransaction } from '../src/events/domain-events';
import { notify, type NewNotification } from '../src/modules/notifications/notifications.service';
import { createSignedInUser, createTestApp, expectError, expectOk, type TestApp } from './helpers';

let t: TestApp;
let alice: Awaited<ReturnType<typeof createSignedInUser>>;
let bob: Awaited<ReturnType<typeof createSignedInUser>>;
beforeAll(async () => {
  t = await createTestApp();
  alice = await createSignedInUser(t.app, t.ctx);
  bob = await createSignedInUser(t.app, t.ctx);
});
afterAll(async () => {
  await t?.close();
});

/** A notification, as a change writes it: in its transaction. */
const say = (userId: string, input: NewNotification) => inTransaction(t.ctx, (tx) => notify(t.ctx, tx, userId, input));

const list = async (headers: Record<string, string>) =>
  expectOk<Notification[]>(await t.app.inject({ method: 'GET', url: '/api/notifications', headers }));

describe('notifications', () => {
  it('lists only the user\u2019s own, newest first, unread', async () => {
    await say(alice.user.id, { type: 'test', title: 'First', message: 'one', aboutRecipientOnly: true });
    await say(bob.user.id, { type: 'test', title: 'For Bob', message: 'bob', aboutRecipientOnly: true });
    await say(alice.user.id, { type: 'test', title: 'Second', message: 'two', link: '/profile', aboutRecipientOnly: true });

    const mine = await list(alice.headers);
    expect(mine.map((n) => n.title)).toEqual(['Second', 'First']);
    expect(mine[0]).toMatchObject({ read: false, link: '/profile', type: 'test', message: 'two' });
    expect(new Date(mine[0]!.createdAt).toISOString()).toBe(mine[0]!.createdAt);
    expect((await list(bob.headers)).map((n) => n.title)).toEqual(['For Bob']);
  });

  it('queues the same event by email in the outbox; the worker delivers it', async () => {
    await say(alice.user.id, { type: 'test', title: 'Mailed too', message: 'mail me', link: '/profile', aboutRecipientOnly: true });
    const mail = await t.outbox.latest(alice.user.email);
    expect(mail).toMatchObject({ subject: 'Mailed too', status: 'pending', attempts: 0, sent_at: null });
    expect(mail!.text).toContain('mail me');
    await t.outbox.drain();
    // No SMTP_URL: the message is kept in the outbox, readable there, and never counts as sent.
    expect(await t.outbox.latest(alice.user.email)).toMatchObject({ subject: 'Mailed too', status: 'kept', attempts: 1, transport: 'outbox', sent_at: null, error: null });
  });

  it('needs a sign-in', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/api/notifications' }), 401);
    expectError(await t.app.inject({ method: 'DELETE', url: '/api/notifications' }), 401);
  });

  it('marks one read for its owner, and answers 404 to anyone else', async () => {
    await say(alice.user.id, { type: 'test', title: 'Mark me', message: 'x', aboutRecipientOnly: true });
    const target = (await list(alice.headers)).find((n) => n.title === 'Mark me')!;

    expectError(await t.app.inject({ method: 'PATCH', url: `/api/notifications/${target.id}/read`, headers: bob.headers }), 404);
    expect((await list(alice.headers)).find((n) => n.id === target.id)?.read).toBe(false);

    const marked = expectOk<Notification>(await t.app.inject({ method: 'PATCH', url: `/api/notifications/${target.id}/read`, headers: alice.headers }));
    expect(marked).toMatchObject({ id: target.id, read: true });
    expect((await list(alice.headers)).find((n) => n.id === target.id)?.read).toBe(true);
  });

  it('answers 404 for an unknown id and a 4xx (never 500) for a malformed one', async () => {
    expectError(await t.app.inject({ method: 'PATCH', url: '/api/notifications/00000000-0000-4000-8000-000000000000/read', headers: alice.headers }), 404);
    const malformed = await t.app.inject({ method: 'PATCH', url: '/api/notifications/not-a-uuid/read', headers: alice.headers });
    expect(malformed.statusCode).toBeGreaterThanOrEqual(400);
    expect(malformed.statusCode).toBeLessThan(500);
  });

  it('clears only the user\u2019s own list', async () => {
    await say(bob.user.id, { type: 'test', title: 'Bob keeps this', message: 'x', aboutRecipientOnly: true });
    expect((await list(alice.headers)).length).toBeGreaterThan(0);
    expectOk(await t.app.inject({ method: 'DELETE', url: '/api/notifications', headers: alice.headers }));
    expect(await list(alice.headers)).toEqual([]);
    expect((await list(bob.headers)).map((n) => n.title)).toContain('Bob keeps this');
  });
});
