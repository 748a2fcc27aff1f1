// Mail through a real SMTP conversation (SMTP_URL set): the reset mail is queued in the outbox, the
// mail worker (drained by the test) sends it to a local smtp-server, mailparser reads it, and the
// link inside works against the API.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, expectOk, resetTokenFromText, TEST_APP_URL, type TestApp } from './helpers';
import { smtpConnectionUrl } from '../src/lib/mail';

interface Received {
  rcptTo: string[];
  mailFrom: string | null;
  mail: ParsedMail;
}

let server: SMTPServer;
let t: TestApp;
const received: Received[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push({
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
            mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
            mail,
          });
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
  const { port } = server.server.address() as AddressInfo;
  t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
});

afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

describe('mail over SMTP', () => {
  it('delivers the reset mail; its link verifies through the API', async () => {
    expect(t.ctx.mailer.transport).toBe('smtp');
    const user = await createUser(t.ctx, { full_name: 'Zanele Khumalo' });
    expectOk(await t.app.inject({ method: 'POST', url: '/api/user/forgot-password', payload: { email: user.email } }));
    // Queued, not sent inside the request.
    expect(received).toHaveLength(0);
    expect(await t.outbox.latest(user.email)).toMatchObject({ status: 'pending', transport: 'smtp', sent_at: null });
    expect(await t.outbox.drain()).toBe(1);

    expect(received).toHaveLength(1);
    const [{ rcptTo, mailFrom, mail }] = received as [Received];
    expect(rcptTo).toEqual([user.email]);
    expect(mailFrom).toBe('no-reply@karoo.co.za');
    expect(mail.subject).toBe('Reset your Karoo password');
    expect(mail.from?.text).toContain('Karoo');
    const to = Array.isArray(mail.to) ? mail.to : [mail.to];
    expect(to.flatMap((a) => a?.value.map((v) => v.address))).toEqual([user.email]);
    expect(mail.text).toContain('Hi Zanele Khumalo,');
    expect(mail.text).toContain(`${TEST_APP_URL}/reset-password?token=`);
    expect(mail.html).toContain(`${TEST_APP_URL}/reset-password?token=`);

    const token = resetTokenFromText(mail.text ?? '');
    expectOk(await t.app.inject({ method: 'GET', url: `/api/user/verify-reset-token/${encodeURIComponent(token)}` }));

    const [record] = await t.outbox.list(user.email);
    expect(record).toMatchObject({ transport: 'smtp', status: 'sent', attempts: 1, error: null });
    expect(record!.sent_at).not.toBeNull();
    // The Message-ID the outbox gave it, so a duplicate delivery would be recognisable.
    expect(mail.messageId).toBe(record!.message_id);
    expect(record!.message_id).toMatch(/^<[0-9a-f-]{36}@karoo\.co\.za>$/);
  });

  it('keeps answering when the SMTP server is gone, and records why the attempt failed', async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const user = await createUser(t.ctx);
    expectOk(await t.app.inject({ method: 'POST', url: '/api/user/forgot-password', payload: { email: user.email } }));
    expect(await t.outbox.drain()).toBe(1);
    const [record] = await t.outbox.list(user.email);
    // Still queued: the worker tries again later (mail-outbox.test.ts follows the retries).
    expect(record).toMatchObject({ transport: 'smtp', status: 'pending', attempts: 1, sent_at: null });
    expect(record!.error).toBeTruthy();
  });
});

describe('the SMTP connection', () => {
  it('carries the timeouts in the URL nodemailer reads, unless SMTP_URL sets its own', () => {
    const url = new URL(smtpConnectionUrl('smtps://user:pass@smtp.example.com:465'));
    expect(Object.fromEntries(url.searchParams)).toEqual({ connectionTimeout: '10000', greetingTimeout: '10000', socketTimeout: '30000' });
    expect(url.username).toBe('user');
    expect(new URL(smtpConnectionUrl('smtp://h:25?socketTimeout=5000')).searchParams.get('socketTimeout')).toBe('5000');
  });
});
