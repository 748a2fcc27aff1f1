// Job payloads are checked with their zod schema (issue 33): on enqueue (a wrong one throws and the
// change rolls back) and when taken off the queue, where each carries its shape's version (`_v`). A
// job this code cannot read (a newer version from an instance already upgraded, or a shape that no
// longer fits) is not run: it goes to '<name>.dead' with the reason at once.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JOBS } from '../src/app-context';
import { inTransaction } from '../src/events/domain-events';
import { NO_PAYLOAD, storedPayload, takenPayload } from '../src/jobs/queue';
import { createTestApp, type TestApp } from './helpers';

const refundJob = { name: 'refunds.attempt' as const, payload: z.object({ refundId: z.uuid() }) };

describe('a payload on the queue (pure)', () => {
  const id = randomUUID();

  it('is stored checked, with its version beside its fields (SQL still reads data->>refundId)', () => {
    expect(storedPayload(refundJob, { refundId: id })).toEqual({ refundId: id, _v: 1 });
    expect(storedPayload({ ...refundJob, version: 3 }, { refundId: id })).toEqual({ refundId: id, _v: 3 });
    expect(() => storedPayload(refundJob, { refundId: 'not-an-id' })).toThrow(/refunds.attempt job does not fit its schema/);
  });

  it('is read back in its version, and a job queued before versions (no _v) as version 1', () => {
    expect(takenPayload(refundJob, { refundId: id, _v: 1 })).toEqual({ ok: true, payload: { refundId: id } });
    expect(takenPayload(refundJob, { refundId: id })).toEqual({ ok: true, payload: { refundId: id } });
  });

  it('is not read in another version without an upgrade, nor in a shape that does not fit', () => {
    expect(takenPayload(refundJob, { refundId: id, _v: 2 })).toEqual({ ok: false, reason: 'payload version 2; this code reads version 1 and has no upgrade from it' });
    expect(takenPayload(refundJob, { refund: id, _v: 1 })).toMatchObject({ ok: false, reason: expect.stringMatching(/^payload does not fit its schema: .*refundId/s) });
    expect(takenPayload({ payload: NO_PAYLOAD }, { stray: 1, _v: 1 })).toMatchObject({ ok: false });
  });

  it('is upgraded from an older version by the definition', () => {
    const v2 = {
      payload: z.object({ refundIds: z.array(z.uuid()) }),
      version: 2,
      upgrade: (stored: unknown, from: number) => (from <= 1 ? { refundIds: [(stored as { refundId: string }).refundId] } : stored),
    };
    expect(takenPayload(v2 as never, { refundId: id, _v: 1 })).toEqual({ ok: true, payload: { refundIds: [id] } });
    expect(takenPayload(v2 as never, { refundId: id })).toEqual({ ok: true, payload: { refundIds: [id] } });
    expect(takenPayload(v2 as never, { refundIds: [id], _v: 2 })).toEqual({ ok: true, payload: { refundIds: [id] } });
  });
});

describe('the queue checks payloads', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('every job has a schema, and a scheduled job\'s accepts the empty payload its schedule stores', () => {
    for (const define of JOBS) {
      const job = define(t.ctx);
      expect(job.payload, job.name).toBeDefined();
      if (job.cron) expect(job.payload.safeParse({}).success, job.name).toBe(true);
    }
  });

  it('refuses a wrong payload on enqueue: the change rolls back and nothing is queued', async () => {
    const jobs = sql.table(`${t.ctx.jobs.schema}.job`);
    const before = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${jobs} WHERE name = 'mail.send'`.execute(t.db);
    await expect(inTransaction(t.ctx, (tx) => t.ctx.jobs.enqueue(tx, 'mail.send', { mailId: 'nope' }))).rejects.toThrow(/mail.send job does not fit its schema/);
    const after = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${jobs} WHERE name = 'mail.send'`.execute(t.db);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('does not run a job of a version it cannot read: it is dead-lettered at once with the reason', async () => {
    const jobs = sql.table(`${t.ctx.jobs.schema}.job`);
    const id = await inTransaction(t.ctx, (tx) => t.ctx.jobs.enqueue(tx, 'records.prune', {}));
    const stored = await sql<{ data: unknown }>`SELECT data FROM ${jobs} WHERE id = ${id}`.execute(t.db);
    expect(stored.rows[0]!.data).toEqual({ _v: 1 });
    // An instance a release ahead wrote it.
    await sql`UPDATE ${jobs} SET data = ${JSON.stringify({ _v: 9 })}::jsonb WHERE id = ${id}`.execute(t.db);
    const failedBefore = t.ctx.jobs.outcomes().find((o) => o.queue === 'records.prune' && o.outcome === 'failed')?.count ?? 0;
    expect(await t.ctx.jobs.runDue('records.prune')).toBe(1);
    expect(t.ctx.jobs.outcomes().find((o) => o.queue === 'records.prune' && o.outcome === 'failed')?.count).toBe(failedBefore + 1);
    const dead = await sql<{ data: { job: string; reason: string } }>`SELECT data FROM ${jobs} WHERE name = 'records.prune.dead'`.execute(t.db);
    expect(dead.rows.map((r) => r.data)).toContainEqual(expect.objectContaining({ job: id, reason: 'payload version 9; this code reads version 1 and has no upgrade from it' }));
    // Ended, not waiting for a retry that could not mend it.
    const state = await sql<{ state: string }>`SELECT state::text AS state FROM ${jobs} WHERE id = ${id}`.execute(t.db);
    expect(state.rows[0]!.state).toBe('completed');
  });
});
