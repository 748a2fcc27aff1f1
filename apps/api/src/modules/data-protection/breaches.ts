// Security compromises (POPIA s. 22; decision 050): an administrator records what happened, when it
// was discovered, which kinds of information, the measures taken and what people should do, and
// who is affected (everyone with an account, or a list of usernames or emails). The record and one
// notice row per affected person are written in one transaction (audited as breach.recorded); the
// breaches.notify job then tells them in batches, each a notification and an email through the
// outbox whatever the notification setting, and marks each notice, so a batch that fails is tried
// again without telling anyone twice.
import { z } from 'zod';
import { BREACH_CATEGORY_LABELS, type Breach, type BreachDataCategory, type NewBreachBody } from '@karoo/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { inTransaction } from '../../events/domain-events';
import type { JobDefinition } from '../../jobs/queue';
import { badRequest, notFound } from '../../lib/app-error';
import { notify } from '../notifications';

declare module '../../events/domain-events' {
  interface DomainEvents {
    'breach.recorded': { breachId: string; discoveredAt: string; dataCategories: string[]; scope: 'all' | 'listed'; affected: number; summary: string };
  }
}

declare module '../../jobs/queue' {
  interface JobPayloads {
    'breaches.notify': { breachId: string };
  }
}

/** People told per job run; the next batch is a new job (so one failure repeats at most a batch). */
export const BREACH_NOTICE_BATCH = 100;

export async function recordBreach(ctx: AppContext, admin: UserRow, body: NewBreachBody): Promise<Breach> {
  const wanted = [...new Set(body.users.map((u) => u.trim().toLowerCase()).filter(Boolean))];
  if (body.scope === 'listed') {
    const found = await ctx.db
      .selectFrom('users')
      .select(['username', 'email'])
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb(eb.fn('lower', ['username']), 'in', wanted), eb(eb.fn('lower', ['email']), 'in', wanted)]))
      .execute();
    const known = new Set(found.flatMap((u) => [u.username.toLowerCase(), u.email.toLowerCase()]));
    const unknown = wanted.filter((w) => !known.has(w));
    if (unknown.length > 0) {
      throw badRequest(`No account has the username or email ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ` (and ${unknown.length - 10} more)` : ''}.`, { users: 'Unknown users' });
    }
  }
  const id = await inTransaction(
    ctx,
    async (tx) => {
      const breach = await tx.db
        .insertInto('data_breaches')
        .values({
          summary: body.summary.trim(),
          discovered_at: new Date(body.discovered_at),
          data_categories: JSON.stringify(body.data_categories),
          measures: body.measures.trim(),
          advice: body.advice.trim(),
          scope: body.scope,
          recorded_by: admin.id,
          recorded_at: tx.now,
          regulator_notified_at: body.regulator_notified_at ? new Date(body.regulator_notified_at) : null,
        })
        .returning(['id'])
        .executeTakeFirstOrThrow();
      const affected = await tx.db
        .insertInto('data_breach_notices')
        .columns(['breach_id', 'user_id'])
        .expression((eb) => {
          let q = eb.selectFrom('users').select([sql.lit(breach.id).as('breach_id'), 'id']).where('deleted_at', 'is', null);
          if (body.scope === 'listed') q = q.where((w) => w.or([w(w.fn('lower', ['username']), 'in', wanted), w(w.fn('lower', ['email']), 'in', wanted)]));
          return q;
        })
        .returning('user_id')
        .execute();
      await tx.db.updateTable('data_breaches').set({ affected_count: affected.length }).where('id', '=', breach.id).execute();
      tx.emit({
        type: 'breach.recorded',
        breachId: breach.id,
        discoveredAt: body.discovered_at.slice(0, 10),
        dataCategories: body.data_categories,
        scope: body.scope,
        affected: affected.length,
        summary: body.summary.trim(),
      });
      if (affected.length > 0) await ctx.jobs.enqueue(tx, 'breaches.notify', { breachId: breach.id });
      return breach.id;
    },
    { by: admin },
  );
  return findBreach(ctx, id);
}

/** Tells one batch of a breach's people; enqueues the next batch while any remain. Returns how many it told. */
export async function notifyBreachBatch(ctx: AppContext, breachId: string): Promise<number> {
  return inTransaction(ctx, async (tx) => {
    const breach = await tx.db.selectFrom('data_breaches').selectAll().where('id', '=', breachId).executeTakeFirst();
    if (!breach) return 0;
    const batch = await tx.db
      .selectFrom('data_breach_notices')
      .select('user_id')
      .where('breach_id', '=', breachId)
      .where('notified_at', 'is', null)
      .orderBy('user_id')
      .limit(BREACH_NOTICE_BATCH)
      .forUpdate()
      .skipLocked()
      .execute();
    const categories = (breach.data_categories as string[]).map((c) => BREACH_CATEGORY_LABELS[c as BreachDataCategory] ?? c).join('; ');
    const message = [
      `We discovered on ${breach.discovered_at.toISOString().slice(0, 10)} that your personal information may have been accessed by someone not allowed to: ${breach.summary}`,
      `Information involved: ${categories}.`,
      `What we have done: ${breach.measures}`,
      `What you can do: ${breach.advice}`,
      'You may also complain to the Information Regulator (inforegulator.org.za). Our Information Officer’s details are on our privacy page.',
    ].join('\n\n');
    for (const { user_id } of batch) {
      await notify(ctx, tx, user_id, { type: 'security_compromise', title: 'Important: a security compromise affecting your Karoo account', message, link: '/privacy', aboutRecipientOnly: true }, { email: 'always' });
    }
    if (batch.length > 0) {
      await tx.db
        .updateTable('data_breach_notices')
        .set({ notified_at: tx.now })
        .where('breach_id', '=', breachId)
        .where('user_id', 'in', batch.map((b) => b.user_id))
        .execute();
    }
    if (batch.length === BREACH_NOTICE_BATCH) await ctx.jobs.enqueue(tx, 'breaches.notify', { breachId });
    return batch.length;
  });
}

export const breachNoticeJob = (ctx: AppContext): JobDefinition<'breaches.notify'> => ({
  name: 'breaches.notify',
  payload: z.object({ breachId: z.uuid() }),
  retry: { limit: 8, delaySeconds: 30, maxDelaySeconds: 30 * 60 },
  timeoutSeconds: 10 * 60,
  run: async (job) => {
    const told = await notifyBreachBatch(ctx, job.data.breachId);
    job.log.info({ breach: job.data.breachId, told }, 'security compromise notices queued');
  },
});

type BreachRow = Awaited<ReturnType<typeof breachRows>>[number];

function breachRows(ctx: AppContext, id?: string) {
  let q = ctx.db
    .selectFrom('data_breaches as b')
    .innerJoin('users as a', 'a.id', 'b.recorded_by')
    .selectAll('b')
    .select('a.username as recorded_by_username')
    .select((eb) =>
      eb
        .selectFrom('data_breach_notices as n')
        .whereRef('n.breach_id', '=', 'b.id')
        .where('n.notified_at', 'is not', null)
        .select(sql<string>`count(*)`.as('n'))
        .as('notified'),
    )
    .orderBy('b.recorded_at', 'desc')
    .orderBy('b.seq', 'desc');
  if (id) q = q.where('b.id', '=', id);
  return q.execute();
}

function toBreach(r: BreachRow): Breach {
  return {
    id: r.id,
    summary: r.summary,
    discovered_at: r.discovered_at.toISOString(),
    data_categories: r.data_categories as string[],
    measures: r.measures,
    advice: r.advice,
    scope: r.scope,
    recorded_by: r.recorded_by_username,
    recorded_at: r.recorded_at.toISOString(),
    regulator_notified_at: r.regulator_notified_at ? r.regulator_notified_at.toISOString() : null,
    affected: r.affected_count,
    notified: Number(r.notified ?? 0),
  };
}

export async function listBreaches(ctx: AppContext): Promise<Breach[]> {
  return (await breachRows(ctx)).map(toBreach);
}

export async function findBreach(ctx: AppContext, id: string): Promise<Breach> {
  const [row] = await breachRows(ctx, id);
  if (!row) throw notFound('Security compromise not found');
  return toBreach(row);
}
