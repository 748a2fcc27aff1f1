// Profiles, verification documents and the admin's user management (document 1; document 3 section 6).
import { randomBytes } from 'node:crypto';
import {
  DOCUMENT_TYPES,
  hasRequiredDocuments,
  isAdmin,
  missingRequiredDocuments,
  missingVerificationItems,
  todayIn,
  userVerificationBlocker,
  type CorrectionField,
  type CreateUserBody,
  type DocumentType,
  type UpdateUserBody,
  type VerificationBody,
} from '@karoo/shared';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import { inTransaction, type Tx } from '../../events/domain-events';
import type { UserRow, UserUpdate } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../../lib/app-error';
import { hashPassword } from '../../lib/passwords';
import { prepareDocument } from '../../lib/uploads';
import * as repo from './users.repository';
import { toDocuments } from './users.mapper';

/** The user behind `{id}`, visible only to that user and admins; everyone else gets 404. */
export async function findVisibleUser(ctx: AppContext, viewer: UserRow, idOrUsername: string): Promise<UserRow> {
  const user = await repo.findUserByIdOrUsername(ctx.db, idOrUsername);
  if (!user || (user.id !== viewer.id && !isAdmin(viewer))) throw notFound('User not found');
  return user;
}

export async function documentsOf(ctx: AppContext, user: UserRow) {
  return repo.listDocuments(ctx.db, [user.id]);
}

/** The admin's user list (newest first, at most 1000) with every listed user's documents. */
/** One page of the admin's user list with its documents, the filtered total and the counters. */
export async function listUsersWithDocuments(ctx: AppContext, query: repo.UserListFilters & { page: number; limit: number }) {
  const { page, limit, ...filters } = query;
  const [users, total, counts] = await Promise.all([
    repo.listUsers(ctx.db, filters, { limit, offset: (page - 1) * limit }),
    repo.countUsers(ctx.db, filters),
    repo.countUsersByStatusAndRole(ctx.db),
  ]);
  const documents = await repo.listDocuments(ctx.db, users.map((u) => u.id));
  return { users, documents, total, counts };
}

const LOCKED_WHEN_VERIFIED = 'Verified users cannot change their identity or bank details. Contact support if something is wrong.';

export async function updateProfile(ctx: AppContext, viewer: UserRow, target: UserRow, body: UpdateUserBody): Promise<UserRow> {
  const viewerIsAdmin = isAdmin(viewer);
  const changes: UserUpdate = {};
  const text = (v: string | undefined) => (v === undefined ? undefined : v.trim());

  const requested = {
    full_name: text(body.full_name),
    email: text(body.email),
    address: text(body.address),
    id_number: text(body.id_number),
    bank_account_number: text(body.bank_account?.account_number),
    bank_code: text(body.bank_account?.bank_code),
  };
  for (const [column, value] of Object.entries(requested) as [keyof typeof requested, string | undefined][]) {
    if (value === undefined || value === (target[column] ?? '')) continue;
    if (target.verification_status === 'verified' && !viewerIsAdmin) throw forbidden(LOCKED_WHEN_VERIFIED);
    changes[column] = value;
  }
  // A verified member may add their licence number (a fine's nomination needs it) but not change it.
  const licence = text(body.driver_licence_number);
  if (licence !== undefined && licence !== (target.driver_licence_number ?? '')) {
    if (target.verification_status === 'verified' && target.driver_licence_number && !viewerIsAdmin) throw forbidden(LOCKED_WHEN_VERIFIED);
    changes.driver_licence_number = licence;
  }
  // The licence's issue date, by the same rule: added once it is verified, changed by an admin only.
  const issuedOn = body.driver_licence_issued_on;
  if (issuedOn !== undefined && issuedOn !== target.driver_licence_issued_on) {
    if (issuedOn > todayIn(ctx.clock.now())) throw badRequest('The licence issue date cannot be in the future.', { driver_licence_issued_on: 'Cannot be in the future' });
    if (target.verification_status === 'verified' && target.driver_licence_issued_on && !viewerIsAdmin) throw forbidden(LOCKED_WHEN_VERIFIED);
    changes.driver_licence_issued_on = issuedOn;
  }
  const phone = text(body.phone_number);
  if (phone !== undefined && phone !== target.phone_number) changes.phone_number = phone;

  if (changes.email && (await repo.isEmailTaken(ctx.db, changes.email, target.id))) {
    throw conflict('An account with this email already exists', { email: 'An account with this email already exists' });
  }
  // Only an admin changes a role (decisions.md section 1); other role-ish fields are ignored.
  if (viewerIsAdmin && body.role && body.role !== target.role) {
    if (target.id === viewer.id) throw forbidden('You cannot change your own role.');
    changes.role = body.role;
    changes.user_type = body.role === 'customer' ? null : body.role;
    if (body.role === 'host' && !target.host_since) changes.host_since = ctx.clock.now();
  }
  if (Object.keys(changes).length === 0) return target;
  return inTransaction(
    ctx,
    async (tx) => {
      const updated = await repo.updateUser(tx.db, target.id, changes, tx.now);
      const before = Object.fromEntries(Object.keys(changes).map((key) => [key, auditValue(key, target[key as keyof UserRow])]));
      const after = Object.fromEntries(Object.entries(changes).map(([key, value]) => [key, auditValue(key, value)]));
      tx.emit({ type: 'user.updated', user: { id: target.id, username: target.username }, before, after });
      return updated;
    },
    { by: viewer },
  );
}

/** A profile value as the audit log keeps it: dates as ISO, a bank account number only by its last digits. */
function auditValue(key: string, value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (key === 'bank_account_number' && typeof value === 'string') return `…${value.slice(-4)}`;
  return value ?? null;
}

export async function verificationStatus(ctx: AppContext, user: UserRow) {
  const rows = await repo.listDocuments(ctx.db, [user.id]);
  const documents = toDocuments(user.username, rows);
  return {
    verification_status: user.verification_status,
    documents,
    missing: missingVerificationItems(
      { ...user, bank_account: { account_number: user.bank_account_number, bank_code: user.bank_code } },
      documents,
    ),
  };
}

export function parseDocumentType(type: string | undefined): DocumentType {
  if (!type || !(DOCUMENT_TYPES as readonly string[]).includes(type)) {
    throw badRequest(`Document type must be one of: ${DOCUMENT_TYPES.join(', ')}`, { type: 'Choose which document this is' });
  }
  return type as DocumentType;
}

export async function uploadDocument(
  ctx: AppContext,
  user: UserRow,
  type: DocumentType,
  file: { buffer: Buffer; filename: string },
): Promise<UserRow> {
  const existing = await repo.findDocument(ctx.db, user.id, type);
  if (existing && user.verification_status === 'verified') {
    throw forbidden('Your account is verified, so its documents can no longer be replaced. Contact support if one has changed.');
  }
  // Decoded, size-checked and stripped of metadata before anything is stored (decision 031).
  const detected = await prepareDocument(file, 'document');
  const key = `users/${user.id}/${type}-${randomBytes(8).toString('hex')}.${detected.ext}`;
  await ctx.privateFiles.put(key, detected.data);
  const now = ctx.clock.now();
  await repo.upsertDocument(ctx.db, {
    user_id: user.id,
    type,
    storage_key: key,
    original_name: file.filename.replace(/[^\w.\- ]+/g, '_').slice(0, 120) || `${type}.${detected.ext}`,
    mime_type: detected.mime,
    size_bytes: detected.data.length,
    uploaded_at: now,
  });
  if (existing) await ctx.privateFiles.remove(existing.storage_key);

  // With every required document in, the account goes to the admins' queue (decisions.md section 2).
  const rows = await repo.listDocuments(ctx.db, [user.id]);
  if (
    (user.verification_status === 'pending_upload' || user.verification_status === 'rejected') &&
    hasRequiredDocuments(toDocuments(user.username, rows))
  ) {
    return repo.updateUser(ctx.db, user.id, { verification_status: 'pending_verification' }, ctx.clock.now());
  }
  return user;
}

export async function readDocument(ctx: AppContext, viewer: UserRow, user: UserRow, type: DocumentType) {
  const doc = await repo.findDocument(ctx.db, user.id, type);
  const data = doc ? await ctx.privateFiles.read(doc.storage_key) : null;
  if (!doc || !data) throw notFound('Document not found');
  // An administrator looking at someone's document is an action the person may ask about (POPIA
  // s. 23, decision 049): audited, and shown to them on Privacy and data by role and date.
  if (viewer.id !== user.id && isAdmin(viewer)) {
    await inTransaction(ctx, async (tx) => tx.emit({ type: 'user.document_viewed', user: { id: user.id, username: user.username }, document: type }), { by: viewer });
  }
  return { doc, data };
}

/**
 * An administrator's approved correction (decision 049): the person's field set to the value they
 * asked for, in the caller's transaction, audited as user.updated like any admin change.
 */
export async function applyCorrection(tx: Tx, userId: string, field: CorrectionField, value: string): Promise<void> {
  const target = await repo.findUserByIdOrUsername(tx.db, userId);
  if (!target) throw notFound('User not found');
  if (field === 'email' && (await repo.isEmailTaken(tx.db, value, target.id))) {
    throw conflict('Another account already uses this email address', { email: 'Another account already uses this email address' });
  }
  await repo.updateUser(tx.db, target.id, { [field]: value }, tx.now);
  tx.emit({
    type: 'user.updated',
    user: { id: target.id, username: target.username },
    before: { [field]: auditValue(field, target[field]) },
    after: { [field]: auditValue(field, value) },
  });
}

export async function setVerification(ctx: AppContext, admin: UserRow, target: UserRow, body: VerificationBody): Promise<UserRow> {
  if (target.verification_status !== 'pending_verification') {
    throw conflict('Only users awaiting verification can be verified or rejected.');
  }
  const isVerified = body.verification_status === 'verified';
  const updated = await inTransaction(ctx, async (tx) => {
    // Trust before access (decisions.md section 12; decision 033): only with every required
    // document on file, read in the transaction that verifies.
    if (isVerified) {
      const documents = toDocuments(target.username, await repo.listDocuments(tx.db, [target.id]));
      const blocker = userVerificationBlocker(documents);
      if (blocker) {
        throw conflict(`@${target.username}: ${blocker}`, Object.fromEntries(missingRequiredDocuments(documents).map((type) => [type, 'Not uploaded'])));
      }
    }
    const row = await repo.updateUser(
      tx.db,
      target.id,
      { verification_status: body.verification_status, verification_notes: body.notes || null, verified_at: isVerified ? tx.now : null },
      tx.now,
    );
    const user = { id: target.id, username: target.username };
    tx.emit(
      isVerified
        ? { type: 'user.verified', user, before: target.verification_status }
        : { type: 'user.rejected', user, notes: body.notes || null, before: target.verification_status },
    );
    return row;
  }, { by: admin });
  return updated;
}

export async function createUserByAdmin(ctx: AppContext, admin: UserRow, body: CreateUserBody): Promise<UserRow> {
  if (await repo.isUsernameTaken(ctx.db, body.username)) throw conflict('Username is already taken', { username: 'Username is already taken' });
  if (await repo.isEmailTaken(ctx.db, body.email)) {
    throw conflict('An account with this email already exists', { email: 'An account with this email already exists' });
  }
  const passwordHash = await hashPassword(body.password);
  return inTransaction(
    ctx,
    async (tx) => {
      const user = await repo.insertUser(tx.db, {
        username: body.username.trim(),
        email: body.email.trim(),
        full_name: body.name.trim(),
        phone_number: body.phone_number?.trim() || null,
        address: body.address?.trim() || null,
        password_hash: passwordHash,
        role: 'customer',
        verification_status: 'pending_upload',
      });
      tx.emit({
        type: 'user.created',
        user: { id: user.id, username: user.username },
        after: { username: user.username, email: user.email, full_name: user.full_name, role: user.role, verification_status: user.verification_status },
      });
      return user;
    },
    { by: admin },
  );
}

/** A completed trip counts for its renter (users.total_trips), in the caller's transaction. */
export function recordCompletedTrip(db: Db, renterId: string): Promise<void> {
  return repo.incrementTotalTrips(db, renterId);
}

/** A user by id or username (not deleted), for other modules' rules; undefined when there is none. */
export function findUser(ctx: AppContext, idOrUsername: string): Promise<UserRow | undefined> {
  return repo.findUserByIdOrUsername(ctx.db, idOrUsername);
}

/** The same, read through `db` (a transaction's handle, inside one). */
export function findUserIn(db: Db, idOrUsername: string): Promise<UserRow | undefined> {
  return repo.findUserByIdOrUsername(db, idOrUsername);
}

/** Listing a first car makes a customer a host (decisions.md section 1), in the caller's transaction. */
export async function makeHost(db: Db, user: UserRow, now: Date): Promise<void> {
  await repo.updateUser(db, user.id, { role: 'host', user_type: 'host', host_since: user.host_since ?? now }, now);
}

/** A host's rating (the reviews module computes it), in the caller's transaction. */
export function recordHostRating(db: Db, userId: string, rating: number | null): Promise<void> {
  return repo.setUserRating(db, userId, rating);
}
