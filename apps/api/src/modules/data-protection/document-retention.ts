// Identity documents kept only as long as needed (POPIA s. 14; decision 050). Every day:
// - a verified account's document files are deleted `document_retention_days` (a setting, 90 by
//   default) after the verification; the rows stay, marked, with who verified and when, so the fact
//   of verification remains;
// - the documents of a rejected account, or of one that never completed its documents for review,
//   are deleted `unsubmitted_document_days` (30) after their upload, rows and files.
// The person is told (a notification, and an email whatever the notification setting). Files go
// first, then the rows: a failure between leaves a row that the next run finishes.
// And the sealing sweep: every document written before encryption is rewritten sealed
// (lib/document-encryption.ts), a batch at a time, marked on its row.
import type { AppContext } from '../../context';
import { inTransaction } from '../../events/domain-events';
import { NO_PAYLOAD, type JobDefinition } from '../../jobs/queue';
import { EncryptedStorage } from '../../lib/document-encryption';
import { notify } from '../notifications';
import { getSettings } from '../settings';
import type { DocumentErasureReason } from './data-protection.tables';

declare module '../../jobs/queue' {
  interface JobPayloads {
    'documents.retention': Record<string, never>;
    'documents.seal': Record<string, never>;
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Every day at 04:10 in Johannesburg, after the pruning. */
export const RETENTION_CRON = '10 4 * * *';
/** Every 15 minutes until every older document is sealed (then each run finds nothing). */
export const SEAL_CRON = '*/15 * * * *';
const SEAL_BATCH = 200;

export interface RetentionCounts {
  verified: number;
  rejected: number;
  notSubmitted: number;
  people: number;
}

interface Due {
  id: string;
  user_id: string;
  storage_key: string;
  type: string;
  verified_at: Date | null;
}

const TYPE_NAMES: Record<string, string> = {
  id_document: 'ID document',
  driver_license: 'driver’s licence',
  proof_of_address: 'proof of address',
  bank_confirmation_letter: 'bank confirmation letter',
};

function told(reason: DocumentErasureReason, count: number, days: number): { title: string; message: string } {
  const files = count === 1 ? 'document' : 'documents';
  if (reason === 'verified_retention') {
    return {
      title: 'Your identity documents have been deleted',
      message: `Your account was verified ${days} days ago, so we have deleted the ${count} ${files} you uploaded for it, as POPIA asks us to keep them no longer than needed. Your account stays verified: we keep that it was verified, by whom and when.`,
    };
  }
  if (reason === 'rejected') {
    return {
      title: 'Your rejected documents have been deleted',
      message: `Your verification was not approved and the ${count} ${files} you uploaded had not been replaced after ${days} days, so we have deleted them. Upload new documents from your profile whenever you are ready.`,
    };
  }
  return {
    title: 'Your unfinished documents have been deleted',
    message: `You uploaded ${count} ${files} more than ${days} days ago but never completed your documents for review, so we have deleted them. Upload them again from your profile whenever you are ready.`,
  };
}

/** Runs the retention once at the context clock's now; returns what it deleted. */
export async function applyDocumentRetention(ctx: AppContext): Promise<RetentionCounts> {
  const settings = await getSettings(ctx);
  const now = ctx.clock.now();
  const verifiedCutoff = new Date(now.getTime() - settings.document_retention_days * DAY_MS);
  const unsubmittedCutoff = new Date(now.getTime() - settings.unsubmitted_document_days * DAY_MS);

  const verified = await ctx.db
    .selectFrom('user_documents as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .select(['d.id', 'd.user_id', 'd.storage_key', 'd.type', 'u.verified_at'])
    .where('u.verification_status', '=', 'verified')
    .where('u.verified_at', '<=', verifiedCutoff)
    .where('d.file_erased_at', 'is', null)
    .execute();
  const stale = await ctx.db
    .selectFrom('user_documents as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .select(['d.id', 'd.user_id', 'd.storage_key', 'd.type', 'u.verified_at', 'u.verification_status'])
    .where('u.verification_status', 'in', ['rejected', 'pending_upload'])
    .where('d.uploaded_at', '<=', unsubmittedCutoff)
    .where('d.file_erased_at', 'is', null)
    .execute();

  const groups = new Map<string, { reason: DocumentErasureReason; docs: Due[] }>();
  for (const doc of verified) groups.set(`verified_retention:${doc.user_id}`, { reason: 'verified_retention', docs: [...(groups.get(`verified_retention:${doc.user_id}`)?.docs ?? []), doc] });
  for (const doc of stale) {
    const reason: DocumentErasureReason = doc.verification_status === 'rejected' ? 'rejected' : 'not_submitted';
    const key = `${reason}:${doc.user_id}`;
    groups.set(key, { reason, docs: [...(groups.get(key)?.docs ?? []), doc] });
  }

  const counts: RetentionCounts = { verified: 0, rejected: 0, notSubmitted: 0, people: 0 };
  for (const { reason, docs } of groups.values()) {
    const userId = docs[0]!.user_id;
    for (const doc of docs) await ctx.privateFiles.remove(doc.storage_key);
    const erased = await inTransaction(ctx, async (tx) => {
      let n = 0;
      if (reason === 'verified_retention') {
        // Who verified: the audit log's latest verification of this account.
        const verifier = await tx.db
          .selectFrom('audit_log')
          .select('admin_id')
          .where('action', '=', 'user.verified')
          .where('target_type', '=', 'user')
          .where('target_id', '=', userId)
          .orderBy('created_at', 'desc')
          .orderBy('seq', 'desc')
          .executeTakeFirst();
        const rows = await tx.db
          .updateTable('user_documents')
          .set({ file_erased_at: tx.now, erasure_reason: reason, verified_at: docs[0]!.verified_at, verified_by: verifier?.admin_id ?? null })
          .where('id', 'in', docs.map((d) => d.id))
          .where('file_erased_at', 'is', null)
          .returning('id')
          .execute();
        n = rows.length;
      } else {
        const rows = await tx.db
          .deleteFrom('user_documents')
          .where('id', 'in', docs.map((d) => d.id))
          .where('file_erased_at', 'is', null)
          .returning('id')
          .execute();
        n = rows.length;
      }
      if (n > 0) {
        const days = reason === 'verified_retention' ? settings.document_retention_days : settings.unsubmitted_document_days;
        const names = [...new Set(docs.map((d) => TYPE_NAMES[d.type] ?? d.type))].join(', ');
        const notice = told(reason, n, days);
        await notify(ctx, tx, userId, { type: 'documents_deleted', title: notice.title, message: `${notice.message} (${names}.)`, link: '/profile/privacy', aboutRecipientOnly: true }, { email: 'always' });
      }
      return n;
    });
    if (erased === 0) continue;
    counts.people += 1;
    if (reason === 'verified_retention') counts.verified += erased;
    else if (reason === 'rejected') counts.rejected += erased;
    else counts.notSubmitted += erased;
  }
  return counts;
}

/** Seals up to a batch of documents written before encryption; returns how many rows it settled. */
export async function sealOlderDocuments(ctx: AppContext): Promise<number> {
  const store = ctx.privateFiles;
  if (!(store instanceof EncryptedStorage)) return 0;
  let settled = 0;
  const docs = await ctx.db
    .selectFrom('user_documents')
    .select(['id', 'storage_key'])
    .where('encrypted', '=', false)
    .where('file_erased_at', 'is', null)
    .orderBy('uploaded_at')
    .limit(SEAL_BATCH)
    .execute();
  for (const doc of docs) {
    await store.sealInPlace(doc.storage_key);
    await ctx.db.updateTable('user_documents').set({ encrypted: true }).where('id', '=', doc.id).where('storage_key', '=', doc.storage_key).execute();
    settled += 1;
  }
  const cars = await ctx.db
    .selectFrom('cars')
    .select(['id', 'registration_storage_key'])
    .where('registration_encrypted', '=', false)
    .where('registration_storage_key', 'is not', null)
    .limit(SEAL_BATCH)
    .execute();
  for (const car of cars) {
    const key = car.registration_storage_key!;
    await store.sealInPlace(key);
    await ctx.db.updateTable('cars').set({ registration_encrypted: true }).where('id', '=', car.id).where('registration_storage_key', '=', key).execute();
    settled += 1;
  }
  return settled;
}

export const documentRetentionJob = (ctx: AppContext): JobDefinition<'documents.retention'> => ({
  name: 'documents.retention',
  payload: NO_PAYLOAD,
  cron: RETENTION_CRON,
  // Each step is safe to repeat (rows already erased are skipped); tomorrow's run catches up anyway.
  retry: { limit: 3, delaySeconds: 60, maxDelaySeconds: 15 * 60 },
  timeoutSeconds: 30 * 60,
  pollSeconds: 60,
  run: async (job) => {
    const counts = await applyDocumentRetention(ctx);
    if (counts.people > 0) job.log.info({ documents: counts }, 'identity documents past their retention deleted');
  },
});

export const documentSealJob = (ctx: AppContext): JobDefinition<'documents.seal'> => ({
  name: 'documents.seal',
  payload: NO_PAYLOAD,
  cron: SEAL_CRON,
  retry: { limit: 3, delaySeconds: 60, maxDelaySeconds: 15 * 60 },
  timeoutSeconds: 30 * 60,
  pollSeconds: 60,
  run: async (job) => {
    const sealed = await sealOlderDocuments(ctx);
    if (sealed > 0) job.log.info({ sealed }, 'documents written before encryption sealed');
  },
});
