// The one job queue across real instances (docs/decisions/038-one-job-queue.md): two Karoo servers
// on one PostgreSQL database, both running every worker, deliver each mail exactly once, each through
// one 'mail.send' job; the every-minute booking expiry is sent once per tick, not once per instance.
// (The same on one process's queues, on PGlite and PostgreSQL, is in mail-outbox.test.ts: two
// PGlite instances cannot share one database.) Runs in the api-postgres project only.
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwoInstances, type Instance, type TwoInstances } from './helpers/instances';

const skipReason =
  process.env.TEST_DB !== 'postgres' ? 'it runs in the api-postgres project (TEST_DB=postgres)' : !process.env.TEST_DATABASE_URL ? 'TEST_DATABASE_URL is not set' : undefined;
if (skipReason) console.log(`job queue instance test skipped: ${skipReason}`);

/** The demo accounts' addresses (SEED_DEMO=true). */
const DEMO_EMAILS = ['thabo@example.co.za', 'lerato@example.co.za', 'ayanda@example.co.za', 'johan@example.co.za', 'zanele@example.co.za', 'sipho@example.co.za', 'kagiso@example.co.za', 'priya@example.co.za'];

describe.skipIf(!!skipReason)('two instances on one PostgreSQL database', () => {
  const accepted: { messageId: string; to: string }[] = [];
  let smtp: SMTPServer;
  let pair: TwoInstances;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        simpleParser(stream).then(
          (mail) => {
            const to = Array.isArray(mail.to) ? mail.to : [mail.to];
            accepted.push({ messageId: mail.messageId ?? '', to: to.flatMap((a) => a?.value.map((v) => v.address)).join(',') });
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });
    await new Promise<void>((resolve, reject) => {
      smtp.once('error', reject);
      smtp.listen(0, '127.0.0.1', () => resolve());
    });
    const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
    // One proxy hop trusted, so each reset request is a client of its own for the rate limits.
    pair = await startTwoInstances({ env: { SMTP_URL: smtpUrl, TRUST_PROXY: '1' } });
  }, 120_000);

  afterAll(async () => {
    await pair?.close();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  }, 60_000);

  const query = async <R extends pg.QueryResultRow>(text: string): Promise<R[]> => {
    const client = new pg.Client({ connectionString: pair.database.url });
    await client.connect();
    try {
      return (await client.query<R>(text)).rows;
    } finally {
      await client.end();
    }
  };

  const completedMailRuns = async (instance: Instance): Promise<number> => {
    const metrics = await (await fetch(`${instance.url}/metrics`)).text();
    return Number(/^karoo_jobs_total\{queue="mail\.send",outcome="completed"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
  };

  it('each mail is sent exactly once, through one job, by one of the two', async () => {
    // Two reset requests per account, one through each instance, all at once: 16 messages.
    let client = 0;
    const requests = DEMO_EMAILS.flatMap((email) =>
      [pair.a, pair.b].map(async (instance) => {
        client += 1;
        const res = await fetch(`${instance.url}/api/user/forgot-password`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.7.${client}` },
          body: JSON.stringify({ email }),
        });
        expect(res.status, await res.text()).toBe(200);
      }),
    );
    await Promise.all(requests);
    const expected = DEMO_EMAILS.length * 2;

    // Wall-clock waiting here is the servers' own (real processes, real SMTP): no test logic reads it.
    await expect.poll(() => accepted.length, { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(expected);
    await expect.poll(async () => (await query<{ count: number }>(`SELECT count(*)::int AS count FROM mail_outbox WHERE status = 'sent'`))[0]!.count, { timeout: 10_000, interval: 100 }).toBe(expected);
    // Both workers keep polling for a few seconds more: nothing goes out again.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect(accepted).toHaveLength(expected);

    const rows = await query<{ id: string; message_id: string; attempts: number; to_address: string }>('SELECT id, message_id, attempts, to_address FROM mail_outbox');
    expect(rows).toHaveLength(expected);
    for (const row of rows) {
      expect(row.attempts).toBe(1);
      expect(accepted.filter((m) => m.messageId === row.message_id)).toHaveLength(1);
    }
    // One completed 'mail.send' job per message, and the two instances' runs add up to the messages.
    const jobs = await query<{ mail_id: string; state: string }>(`SELECT data->>'mailId' AS mail_id, state FROM pgboss.job WHERE name = 'mail.send'`);
    expect(jobs.map((j) => j.mail_id).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(new Set(jobs.map((j) => j.state))).toEqual(new Set(['completed']));
    expect((await completedMailRuns(pair.a)) + (await completedMailRuns(pair.b))).toBe(expected);
  }, 90_000);

  it('the scheduled booking expiry is sent once per minute, not once per instance', async () => {
    const ticks = await query<{ minute: string; count: number }>(
      `SELECT date_trunc('minute', created_on)::text AS minute, count(*)::int AS count FROM pgboss.job WHERE name = 'bookings.expire' GROUP BY 1`,
    );
    for (const tick of ticks) expect(tick.count, `jobs sent for the tick of ${tick.minute}`).toBe(1);
    // Both instances registered the one schedule.
    expect(await query<{ name: string; cron: string }>(`SELECT name, cron FROM pgboss.schedule ORDER BY name`)).toEqual([
      { name: 'bookings.expire', cron: '* * * * *' },
      { name: 'bookings.remind', cron: '*/5 * * * *' },
      { name: 'documents.retention', cron: '10 4 * * *' },
      { name: 'documents.seal', cron: '*/15 * * * *' },
      { name: 'payouts.run', cron: '20 * * * *' },
      { name: 'payouts.sync', cron: '*/10 * * * *' },
      { name: 'photos.sweep', cron: '*/10 * * * *' },
      { name: 'privacy.exports.expire', cron: '20 * * * *' },
      { name: 'records.prune', cron: '30 3 * * *' },
      { name: 'refunds.sweep', cron: '*/15 * * * *' },
      { name: 'reviews.reveal', cron: '7 * * * *' },
      { name: 'traffic-fines.remind', cron: '15 6 * * *' },
      { name: 'trip-changes.lapse', cron: '* * * * *' },
      { name: 'trip-charges.sweep', cron: '*/15 * * * *' },
    ]);
  });
});
