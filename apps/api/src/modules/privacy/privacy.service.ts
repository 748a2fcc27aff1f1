// POPIA rights in the product (issue 24, decision 049): what is held about a person and who viewed
// their documents (s. 18, s. 23), their data as a ZIP built on the job queue (s. 23), corrections an
// administrator answers (s. 24), the marketing choice (s. 69) and the versions of the terms and
// privacy notice each person accepted.
import {
  CURRENT_POLICIES,
  DATA_EXPORT_VALID_HOURS,
  DOCUMENT_LABELS,
  MARKETING_CONSENT,
  POLICIES_PENDING_FIELD,
  POLICY_NAMES,
  TIME_ZONE,
  updateUserBodySchema,
  type AcceptPoliciesBody,
  type AdminCorrectionRequest,
  type ConsentSource,
  type CorrectionDecisionBody,
  type CorrectionField,
  type CorrectionRequest,
  type CorrectionRequestBody,
  type DataExport,
  type DocumentType,
  type PolicyState,
  type PrivacyOverview,
} from '@karoo/shared';
import { strToU8, zipSync, type Zippable } from 'fflate';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import type { UserRow } from '../../db/schema';
import { inTransaction, type EventOf, type Tx } from '../../events/domain-events';
import { badRequest, conflict, notFound } from '../../lib/app-error';
import { queueMail, renderMail } from '../../lib/mail';
import { publicKeyOf } from '../../lib/public-files';
import { newToken } from '../../lib/tokens';
import { notify } from '../notifications';
import { applyCorrection } from '../users';
import { CATEGORIES, PERSONAL_TABLES, type CategoryKey } from './privacy.registry';
import * as repo from './privacy.repository';

const HOUR_MS = 60 * 60 * 1000;
export const PRIVACY_PAGE = '/profile/privacy';

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);

/** "27 November 2026, 14:05" in Johannesburg: how a mail names a moment. */
export function formatMoment(instant: Date): string {
  return new Intl.DateTimeFormat('en-ZA', { timeZone: TIME_ZONE, day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false }).format(instant);
}

// ---- Consents and the versions of the terms ----
/** The words recorded with an acceptance of one version of the terms or privacy notice. */
const acceptanceWording = (kind: 'terms' | 'privacy') => `I agree to the ${POLICY_NAMES[kind]} (version ${CURRENT_POLICIES[kind].version}).`;

async function recordMarketing(tx: Tx, userId: string, granted: boolean, source: ConsentSource): Promise<void> {
  await repo.insertConsent(tx.db, {
    user_id: userId,
    kind: 'marketing',
    version: MARKETING_CONSENT.version,
    wording: MARKETING_CONSENT.wording,
    granted,
    source,
    // A yes carries its own unsubscribe token: each marketing mail links to it.
    unsubscribe_token: granted ? newToken() : null,
    recorded_at: tx.now,
  });
}

async function recordAcceptances(tx: Tx, userId: string, source: ConsentSource): Promise<void> {
  for (const kind of ['terms', 'privacy'] as const) {
    await repo.insertConsent(tx.db, { user_id: userId, kind, version: CURRENT_POLICIES[kind].version, wording: acceptanceWording(kind), granted: true, source, recorded_at: tx.now });
  }
}

/** In the registration's transaction: what the new account accepted, and its marketing choice (unticked unless ticked). */
export async function recordRegistrationConsents(tx: Tx, event: EventOf<'user.registered'>): Promise<void> {
  await recordAcceptances(tx, event.user.id, 'register');
  await recordMarketing(tx, event.user.id, event.marketingOptIn, 'register');
}

/**
 * The version every account accepted before versions were recorded: an account whose acceptance has
 * no row (made before migration 0026, or by a script that writes users directly, like the demo seed)
 * accepted this one when users.terms_accepted_at / privacy_accepted_at say.
 */
export const FIRST_RECORDED_VERSION = '2025-01';

export async function policiesOf(db: Db, user: Pick<UserRow, 'id' | 'terms_accepted_at' | 'privacy_accepted_at'>): Promise<PolicyState[]> {
  const latest = await repo.latestConsents(db, user.id);
  return (['terms', 'privacy'] as const).map((kind) => {
    const recorded = latest[kind];
    const before = kind === 'terms' ? user.terms_accepted_at : user.privacy_accepted_at;
    const accepted = recorded ? { version: recorded.version, at: recorded.recorded_at } : before ? { version: FIRST_RECORDED_VERSION, at: before } : null;
    const current = CURRENT_POLICIES[kind];
    return {
      kind,
      name: POLICY_NAMES[kind],
      current_version: current.version,
      effective: current.effective,
      changes: current.changes,
      accepted_version: accepted?.version ?? null,
      accepted_at: iso(accepted?.at),
      needs_acceptance: accepted?.version !== current.version,
    };
  });
}

/**
 * Refuses (409) what would bind a person to the terms, a booking request or a car listed, while they
 * have not accepted the terms and the privacy notice in force. The web app asks at sign-in (the
 * interstitial); this holds the same line for any other client, and for a page left open across the
 * publication of a new version. An administrator acting for a member is not asked (decision 049).
 */
export async function requireCurrentPolicies(db: Db, user: Pick<UserRow, 'id' | 'terms_accepted_at' | 'privacy_accepted_at'>): Promise<void> {
  const pending = (await policiesOf(db, user)).filter((policy) => policy.needs_acceptance);
  if (!pending.length) return;
  const names = pending.map((policy) => policy.name).join(' and ');
  throw conflict(`To continue, accept Karoo's current ${names}.`, {
    [POLICIES_PENDING_FIELD]: `Accept the current ${names} first.`,
  });
}

/** Accepting the versions in force (the sign-in interstitial); a version that is not the current one is refused. */
export async function acceptPolicies(ctx: AppContext, user: UserRow, body: AcceptPoliciesBody): Promise<PolicyState[]> {
  if (body.terms_version !== CURRENT_POLICIES.terms.version || body.privacy_version !== CURRENT_POLICIES.privacy.version) {
    throw conflict('The terms or privacy notice changed since this page loaded. Reload to read the current version.');
  }
  await inTransaction(ctx, (tx) => recordAcceptances(tx, user.id, 'sign_in'), { by: user });
  return policiesOf(ctx.db, user);
}

export async function setMarketingChoice(ctx: AppContext, user: UserRow, granted: boolean) {
  await inTransaction(ctx, (tx) => recordMarketing(tx, user.id, granted, 'privacy_page'), { by: user });
  return marketingStateOf(ctx.db, user.id);
}

async function marketingStateOf(db: Db, userId: string) {
  const latest = await repo.latestMarketingConsent(db, userId);
  return { granted: latest?.granted ?? false, recorded_at: iso(latest?.recorded_at), wording: latest?.wording ?? null, version: latest?.version ?? null };
}

/**
 * The one-click unsubscribe (RFC 8058): the token of a marketing yes, from the mail's link or its
 * List-Unsubscribe-Post. Records a no unless the person's latest choice already is one; an unknown
 * token is a 404. No sign-in: the token is the proof.
 */
export async function unsubscribe(ctx: AppContext, token: string): Promise<void> {
  const consent = await repo.findConsentByUnsubscribeToken(ctx.db, token);
  if (!consent) throw notFound('This unsubscribe link is not valid.');
  await inTransaction(ctx, async (tx) => {
    const latest = await repo.latestMarketingConsent(tx.db, consent.user_id);
    if (latest?.granted) await recordMarketing(tx, consent.user_id, false, 'unsubscribe');
  });
}

/** The one-click unsubscribe token of the person's current marketing yes, or null when their choice is no. */
export async function unsubscribeTokenOf(db: Db, userId: string): Promise<string | null> {
  const latest = await repo.latestMarketingConsent(db, userId);
  return latest?.granted ? latest.unsubscribe_token : null;
}

// ---- What is held ----
export async function overview(ctx: AppContext, user: UserRow): Promise<PrivacyOverview> {
  const counts = await repo.personalRowCounts(ctx.db, user.id);
  const byCategory = new Map<CategoryKey, number>();
  for (const entry of PERSONAL_TABLES) byCategory.set(entry.category, (byCategory.get(entry.category) ?? 0) + (counts.get(entry.table) ?? 0));
  // Bank details are two columns of the account: one record when they are there.
  byCategory.set('bank', user.bank_account_number ? 1 : 0);
  const views = await repo.documentViewsOf(ctx.db, user.id);
  return {
    categories: (Object.keys(CATEGORIES) as CategoryKey[]).map((key) => ({ key, ...CATEGORIES[key], count: byCategory.get(key) ?? 0 })),
    document_views: views.map((view) => {
      const type = (view.after as { document?: string } | null)?.document as DocumentType | undefined;
      return { role: 'Karoo administrator', document: (type && DOCUMENT_LABELS[type]) || 'A verification document', viewed_at: new Date(view.created_at).toISOString() };
    }),
    marketing: await marketingStateOf(ctx.db, user.id),
    policies: await policiesOf(ctx.db, user),
  };
}

// ---- Download everything ----
function toDataExport(row: repo.DataExportRow, now: Date): DataExport {
  const expired = row.status === 'expired' || (row.status === 'ready' && !!row.expires_at && new Date(row.expires_at) <= now);
  return {
    id: row.id,
    status: expired ? 'expired' : row.status,
    requested_at: new Date(row.requested_at).toISOString(),
    ready_at: iso(row.ready_at),
    expires_at: iso(row.expires_at),
    size_bytes: row.size_bytes,
  };
}

export async function listExports(ctx: AppContext, user: UserRow): Promise<DataExport[]> {
  const now = ctx.clock.now();
  return (await repo.listExports(ctx.db, user.id, 5)).map((row) => toDataExport(row, now));
}

/** A new export, built in the background; one in preparation at a time (asking again returns it). */
export async function requestExport(ctx: AppContext, user: UserRow): Promise<DataExport> {
  const row = await inTransaction(
    ctx,
    async (tx) => {
      const preparing = await repo.findPreparingExport(tx.db, user.id);
      if (preparing) return preparing;
      const created = await repo.insertExport(tx.db, user.id, tx.now);
      await ctx.jobs.enqueue(tx, 'privacy.export', { exportId: created.id });
      return created;
    },
    { by: user },
  );
  return toDataExport(row, ctx.clock.now());
}

/** The ZIP of a ready export, for its owner only, within its 24 hours; anyone else, or later, gets 404. */
export async function readExport(ctx: AppContext, user: UserRow, id: string): Promise<{ data: Buffer; filename: string }> {
  const row = await repo.findExport(ctx.db, id);
  const now = ctx.clock.now();
  if (!row || row.user_id !== user.id || row.status !== 'ready' || !row.storage_key || !row.expires_at || new Date(row.expires_at) <= now) {
    throw notFound('This download does not exist or has expired. Ask for a new one on Privacy and data.');
  }
  const data = await ctx.privateFiles.read(row.storage_key);
  if (!data) throw notFound('This download does not exist or has expired. Ask for a new one on Privacy and data.');
  return { data, filename: `karoo-data-${user.username}-${new Date(row.requested_at).toISOString().slice(0, 10)}.zip` };
}

const EXTENSIONS: Record<string, string> = { 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };
const extensionOf = (mimeOrKey: string) => EXTENSIONS[mimeOrKey] ?? (/\.([a-z0-9]{1,5})$/i.exec(mimeOrKey)?.[1] ?? 'bin');

/** Everything the registry lists for the person, as the JSON of the export: one entry per table. */
export async function collectRecords(db: Db, userId: string): Promise<Record<string, { category: string; rows: Record<string, unknown>[] }>> {
  const tables = await repo.existingTables(db);
  const records: Record<string, { category: string; rows: Record<string, unknown>[] }> = {};
  for (const entry of PERSONAL_TABLES) {
    if (!tables.has(entry.table)) continue;
    records[entry.table] = { category: CATEGORIES[entry.category].label, rows: await repo.personalRows(db, entry, userId) };
  }
  return records;
}

/** The job: the person's records as data.json and their uploaded files, zipped into the private store. */
export async function buildExport(ctx: AppContext, exportId: string, isLastAttempt: boolean): Promise<void> {
  const row = await repo.findExport(ctx.db, exportId);
  if (!row || row.status !== 'preparing') return; // built by an earlier attempt, or gone with its account
  try {
    const now = ctx.clock.now();
    const files: Zippable = {};
    const listed: { path: string; what: string }[] = [];
    const { documents, cars } = await repo.uploadedFilesOf(ctx.db, row.user_id);
    for (const doc of documents) {
      const data = await ctx.privateFiles.read(doc.storage_key);
      if (!data) continue;
      const path = `files/documents/${doc.type}.${extensionOf(doc.mime_type)}`;
      files[path] = [new Uint8Array(data), { level: 0 }];
      listed.push({ path, what: DOCUMENT_LABELS[doc.type] });
    }
    for (const car of cars) {
      const images = Array.isArray(car.images) ? car.images : [];
      for (const [index, url] of images.entries()) {
        const key = publicKeyOf(url);
        const data = key ? await ctx.publicFiles.read(key) : null;
        if (!key || !data) continue;
        const path = `files/cars/${car.car_username}/photo-${index + 1}.${extensionOf(key)}`;
        files[path] = [new Uint8Array(data), { level: 0 }];
        listed.push({ path, what: `Photo ${index + 1} of ${car.car_username}` });
      }
      if (car.registration_storage_key) {
        const data = await ctx.privateFiles.read(car.registration_storage_key);
        if (data) {
          const path = `files/cars/${car.car_username}/registration.${extensionOf(car.registration_mime ?? car.registration_storage_key)}`;
          files[path] = [new Uint8Array(data), { level: 0 }];
          listed.push({ path, what: `Registration document of ${car.car_username}` });
        }
      }
    }
    const document = {
      about: 'Everything Karoo holds about you (POPIA s. 23): one entry per table, with every row that is yours. Passwords and security tokens are kept only as hashes and left out.',
      generated_at: now.toISOString(),
      user_id: row.user_id,
      tables: await collectRecords(ctx.db, row.user_id),
      files: listed,
    };
    files['data.json'] = strToU8(JSON.stringify(document, null, 2));
    const zip = Buffer.from(zipSync(files, { level: 6, mtime: now }));
    const storageKey = `exports/${row.user_id}/${row.id}.zip`;
    await ctx.privateFiles.put(storageKey, zip);
    await inTransaction(ctx, async (tx) => {
      const expiresAt = new Date(tx.now.getTime() + DATA_EXPORT_VALID_HOURS * HOUR_MS);
      const ready = await repo.markExportReady(tx.db, row.id, { storageKey, sizeBytes: zip.length, now: tx.now, expiresAt });
      if (ready) await mailExportReady(ctx, tx, row.user_id, expiresAt);
    });
  } catch (error) {
    if (isLastAttempt) await repo.markExportFailed(ctx.db, row.id);
    throw error;
  }
}

async function mailExportReady(ctx: AppContext, tx: Tx, userId: string, expiresAt: Date): Promise<void> {
  const user = await tx.db.selectFrom('users').select(['email', 'full_name']).where('id', '=', userId).executeTakeFirst();
  if (!user) return;
  const mail = await renderMail({
    greeting: `Hi ${user.full_name},`,
    paragraphs: [
      'The copy of your Karoo data you asked for is ready: a ZIP with all your records as JSON and the files you uploaded.',
      `You can download it until ${formatMoment(expiresAt)} (24 hours). Sign in to Karoo and open Privacy and data; only you can download it.`,
      'If you did not ask for it, change your password and tell us.',
    ],
    action: { label: 'Download your data', url: `${ctx.env.APP_URL}${PRIVACY_PAGE}#download` },
  });
  await queueMail(ctx, tx, { to: user.email, subject: 'Your Karoo data is ready to download', userId, ...mail });
}

/** Exports past their 24 hours: the file deleted, the row kept as expired. Returns how many. */
export async function expireExports(ctx: AppContext): Promise<number> {
  const due = await repo.listExpiredExports(ctx.db, ctx.clock.now());
  for (const row of due) {
    if (row.storage_key) await ctx.privateFiles.remove(row.storage_key);
    await repo.markExportExpired(ctx.db, row.id);
  }
  return due.length;
}

// ---- Corrections ----
/** A field's name inside a sentence ("your ID number"). */
const FIELD_WORDS: Record<CorrectionField, string> = {
  full_name: 'full name',
  email: 'email address',
  address: 'address',
  id_number: 'ID number',
  bank_account_number: 'bank account number',
  bank_code: 'bank code',
};

function toCorrection(row: repo.CorrectionRow): CorrectionRequest {
  return {
    id: row.id,
    field: row.field,
    current_value: row.current_value,
    proposed_value: row.proposed_value,
    reason: row.reason,
    status: row.status,
    decided_at: iso(row.decided_at),
    decision_note: row.decision_note,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** The field's current value as the person and the administrator see it (a bank account by its last four digits). */
function shownValue(field: CorrectionField, value: string | null): string | null {
  if (value === null || value === '') return null;
  return field === 'bank_account_number' ? `…${value.slice(-4)}` : value;
}

/** The profile's own rule for the field, so a correction can never set what the profile form would refuse. */
function invalidValue(field: CorrectionField, value: string): string | null {
  const body =
    field === 'bank_account_number' ? { bank_account: { account_number: value } } : field === 'bank_code' ? { bank_account: { bank_code: value } } : { [field]: value };
  const parsed = updateUserBodySchema.safeParse(body);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'This value is not valid');
}

export async function correctionsOf(ctx: AppContext, user: UserRow): Promise<CorrectionRequest[]> {
  return (await repo.listCorrectionsOf(ctx.db, user.id)).map(toCorrection);
}

/** A verified person asks for a locked field to be corrected; one open request per field. */
export async function requestCorrection(ctx: AppContext, user: UserRow, body: CorrectionRequestBody): Promise<CorrectionRequest> {
  if (user.verification_status !== 'verified') {
    throw conflict('Your account is not verified yet, so you can change this detail yourself on your profile.');
  }
  const invalid = invalidValue(body.field, body.proposed_value);
  if (invalid) throw badRequest(invalid, { proposed_value: invalid });
  const current = user[body.field];
  if ((current ?? '') === body.proposed_value) throw badRequest('That is already the value we hold.', { proposed_value: 'That is already the value we hold.' });
  try {
    const row = await repo.insertCorrection(ctx.db, {
      user_id: user.id,
      field: body.field,
      current_value: shownValue(body.field, current),
      proposed_value: body.proposed_value,
      reason: body.reason,
      created_at: ctx.clock.now(),
    });
    return toCorrection(row);
  } catch (error) {
    if ((error as { code?: string }).code === '23505') {
      throw conflict(`You already asked to correct your ${FIELD_WORDS[body.field]}; we will answer that request first.`);
    }
    throw error;
  }
}

export async function listOpenCorrections(ctx: AppContext): Promise<AdminCorrectionRequest[]> {
  const rows = await repo.listOpenCorrections(ctx.db);
  return rows.map((row) => ({
    ...toCorrection(row),
    user: { id: row.user_id, username: row.username, full_name: row.full_name, verification_status: row.verification_status },
  }));
}

/** An administrator approves (the field changes) or declines, with a note the person reads; audited, once. */
export async function decideCorrection(ctx: AppContext, admin: UserRow, id: string, body: CorrectionDecisionBody): Promise<CorrectionRequest> {
  return inTransaction(
    ctx,
    async (tx) => {
      const request = await repo.findCorrection(tx.db, id);
      if (!request) throw notFound('Correction request not found');
      const decided = await repo.decideCorrection(tx.db, id, { status: body.decision === 'approve' ? 'approved' : 'declined', by: admin.id, note: body.note, now: tx.now });
      if (!decided) throw conflict('This request was already answered.');
      const person = await tx.db.selectFrom('users').select(['id', 'username']).where('id', '=', request.user_id).executeTakeFirstOrThrow();
      if (body.decision === 'approve') await applyCorrection(tx, request.user_id, request.field, request.proposed_value);
      tx.emit({ type: 'privacy.correction_decided', user: person, requestId: id, field: request.field, decision: body.decision, note: body.note });
      const words = FIELD_WORDS[request.field];
      await notify(ctx, tx, request.user_id, {
        type: 'privacy',
        title: body.decision === 'approve' ? `Your ${words} was corrected` : `Your correction request was declined`,
        message:
          body.decision === 'approve'
            ? `We corrected your ${words} as you asked. Note from our team: ${body.note}`
            : `We did not change your ${words}. Note from our team: ${body.note}`,
        link: `${PRIVACY_PAGE}#correct`,
        aboutRecipientOnly: true,
      });
      return toCorrection(decided);
    },
    { by: admin },
  );
}

// ---- Marketing ----
/** The headers and footer link of a marketing mail for one person, or null when they have not opted in. */
export async function unsubscribeOf(ctx: AppContext, db: Db, userId: string): Promise<{ url: string; headers: Record<string, string> } | null> {
  const token = await unsubscribeTokenOf(db, userId);
  if (!token) return null;
  const oneClick = `${ctx.env.APP_URL}/api/privacy/unsubscribe?token=${encodeURIComponent(token)}`;
  return {
    url: `${ctx.env.APP_URL}/unsubscribe?token=${encodeURIComponent(token)}`,
    headers: { 'List-Unsubscribe': `<${oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

/**
 * Karoo news (the one marketing mail): an administrator writes it, and it is queued for every person
 * whose latest marketing choice is yes, each with their own unsubscribe link and headers. The mail
 * layer checks the consent again (queueMail), and the mail job once more before sending.
 */
export async function sendNews(ctx: AppContext, admin: UserRow, news: { subject: string; message: string }): Promise<number> {
  return inTransaction(
    ctx,
    async (tx) => {
      const people = await repo.usersWithMarketingConsent(tx.db);
      for (const person of people) {
        const unsubscribe = await unsubscribeOf(ctx, tx.db, person.id);
        if (!unsubscribe) continue;
        const mail = await renderMail({ greeting: `Hi ${person.full_name},`, paragraphs: news.message.split(/\n{2,}/).map((p) => p.trim()).filter(Boolean), unsubscribeUrl: unsubscribe.url });
        await queueMail(ctx, tx, { to: person.email, subject: news.subject, kind: 'marketing', userId: person.id, headers: unsubscribe.headers, ...mail });
      }
      return people.length;
    },
    { by: admin },
  );
}
