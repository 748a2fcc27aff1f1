// SQL for users, sessions, reset tokens, documents and throttles.
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { NewUser, UserDocumentRow, UserRow, UserUpdate } from '../../db/schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `{id}` of a user accepts the id or the username. */
export function findUserByIdOrUsername(db: Db, idOrUsername: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('deleted_at', 'is', null)
    .where((eb) =>
      UUID.test(idOrUsername)
        ? eb.or([eb('id', '=', idOrUsername), eb(sql`lower(username)`, '=', idOrUsername.toLowerCase())])
        : eb(sql`lower(username)`, '=', idOrUsername.toLowerCase()),
    )
    .executeTakeFirst();
}

/** Login accepts the username or the email, case-insensitively. */
export function findUserByLogin(db: Db, login: string): Promise<UserRow | undefined> {
  const value = login.trim().toLowerCase();
  return db
    .selectFrom('users')
    .selectAll()
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb(sql`lower(username)`, '=', value), eb(sql`lower(email)`, '=', value)]))
    .executeTakeFirst();
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('deleted_at', 'is', null)
    .where(sql`lower(email)`, '=', email.trim().toLowerCase())
    .executeTakeFirst();
}

export async function isUsernameTaken(db: Db, username: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where(sql`lower(username)`, '=', username.toLowerCase()).executeTakeFirst();
  return !!row;
}

export async function isEmailTaken(db: Db, email: string, exceptUserId?: string): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where(sql`lower(email)`, '=', email.toLowerCase());
  if (exceptUserId) query = query.where('id', '!=', exceptUserId);
  return !!(await query.executeTakeFirst());
}

export function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

export function updateUser(db: Db, id: string, changes: UserUpdate, now: Date): Promise<UserRow> {
  return db
    .updateTable('users')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface UserListFilters {
  search?: string;
  status?: UserRow['verification_status'];
  role?: UserRow['role'];
}

/** The users matching the filters (deleted users never), as a base query to page or count. */
function filteredUsers(db: Db, filters: UserListFilters) {
  let query = db.selectFrom('users').where('deleted_at', 'is', null);
  if (filters.search) {
    // LIKE wildcards in the search are matched literally.
    const like = `%${filters.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(full_name)`, 'like', like),
        eb(sql`lower(username)`, 'like', like),
        eb(sql`lower(email)`, 'like', like),
      ]),
    );
  }
  if (filters.status) query = query.where('verification_status', '=', filters.status);
  if (filters.role) query = query.where('role', '=', filters.role);
  return query;
}

/** One page of the matching users, newest first (the id breaks ties, so pages never overlap). */
export function listUsers(db: Db, filters: UserListFilters, page: { limit: number; offset: number }): Promise<UserRow[]> {
  return filteredUsers(db, filters)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** How many users match the filters. */
export async function countUsers(db: Db, filters: UserListFilters): Promise<number> {
  const row = await filteredUsers(db, filters).select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Every user not deleted, by verification status and by role: one aggregate query. */
export async function countUsersByStatusAndRole(db: Db) {
  const count = (condition: ReturnType<typeof sql>) => sql<string>`count(*) filter (where ${condition})`;
  const row = await db
    .selectFrom('users')
    .where('deleted_at', 'is', null)
    .select([
      sql<string>`count(*)`.as('total'),
      count(sql`verification_status = 'pending_verification'`).as('pending_verification'),
      count(sql`verification_status = 'verified'`).as('verified'),
      count(sql`verification_status = 'rejected'`).as('rejected'),
      count(sql`verification_status = 'pending_upload'`).as('pending_upload'),
      count(sql`role = 'admin'`).as('admins'),
      count(sql`role = 'host'`).as('hosts'),
      count(sql`role = 'customer'`).as('customers'),
    ])
    .executeTakeFirstOrThrow();
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)])) as {
    [K in keyof typeof row]: number;
  };
}

// ---- Sessions ----
/** The live session behind a token hash and its user (not revoked, not expired, user not deleted). */
export function findSessionUser(db: Db, tokenHash: string, now: Date) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.id as session_id', 'sessions.last_used_at as session_last_used_at'])
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function touchSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db.updateTable('sessions').set({ last_used_at: now }).where('id', '=', sessionId).execute();
}

export async function insertSession(
  db: Db,
  session: { user_id: string; token_hash: string; expires_at: Date; user_agent: string | null; ip: string | null },
): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

export async function revokeSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

export async function revokeAllSessions(db: Db, userId: string, now: Date): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}

/** Revokes every session of a user but one (the session that changed the password). */
export async function revokeOtherSessions(db: Db, userId: string, keepSessionId: string, now: Date): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('id', '!=', keepSessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

// ---- Reset tokens ----
export async function insertResetToken(db: Db, token: { user_id: string; token_hash: string; expires_at: Date }): Promise<void> {
  await db.insertInto('password_reset_tokens').values(token).execute();
}

export function findUsableResetToken(db: Db, tokenHash: string, now: Date) {
  return db
    .selectFrom('password_reset_tokens')
    .innerJoin('users', 'users.id', 'password_reset_tokens.user_id')
    .select(['password_reset_tokens.id', 'password_reset_tokens.user_id'])
    .where('password_reset_tokens.token_hash', '=', tokenHash)
    .where('password_reset_tokens.used_at', 'is', null)
    .where('password_reset_tokens.expires_at', '>', now)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Marks one token used, atomically: false when another request used it first. */
export async function consumeResetToken(db: Db, tokenId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('password_reset_tokens')
    .set({ used_at: now })
    .where('id', '=', tokenId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function invalidateResetTokens(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('password_reset_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

// ---- Documents ----
export function listDocuments(db: Db, userIds: string[]): Promise<UserDocumentRow[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('user_documents').selectAll().where('user_id', 'in', userIds).execute();
}

export function findDocument(db: Db, userId: string, type: UserDocumentRow['type']) {
  return db.selectFrom('user_documents').selectAll().where('user_id', '=', userId).where('type', '=', type).executeTakeFirst();
}

export async function upsertDocument(
  db: Db,
  doc: Omit<UserDocumentRow, 'id' | 'uploaded_at'> & { uploaded_at: Date },
): Promise<void> {
  await db
    .insertInto('user_documents')
    .values(doc)
    .onConflict((oc) =>
      oc.columns(['user_id', 'type']).doUpdateSet({
        storage_key: doc.storage_key,
        original_name: doc.original_name,
        mime_type: doc.mime_type,
        size_bytes: doc.size_bytes,
        uploaded_at: doc.uploaded_at,
      }),
    )
    .execute();
}

// ---- Throttles ----
export function findThrottle(db: Db, key: string) {
  return db.selectFrom('auth_throttle').selectAll().where('key', '=', key).executeTakeFirst();
}

/**
 * Counts one event for a key inside a rolling window, atomically, and locks the key for
 * `lockMs` once the count reaches `max`. Returns the row after counting.
 */
export function countThrottleEvent(db: Db, key: string, now: Date, windowMs: number, max: number, lockMs: number) {
  const windowStart = new Date(now.getTime() - windowMs);
  const lockUntil = new Date(now.getTime() + lockMs);
  return db
    .insertInto('auth_throttle')
    .values({ key, failures: 1, window_started_at: now, locked_until: max <= 1 ? lockUntil : null })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql`CASE WHEN auth_throttle.window_started_at < ${windowStart} THEN 1 ELSE auth_throttle.failures + 1 END`,
        window_started_at: sql`CASE WHEN auth_throttle.window_started_at < ${windowStart} THEN ${now} ELSE auth_throttle.window_started_at END`,
        locked_until: sql`CASE WHEN auth_throttle.window_started_at >= ${windowStart} AND auth_throttle.failures + 1 >= ${max} THEN ${lockUntil}::timestamptz ELSE auth_throttle.locked_until END`,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function clearThrottle(db: Db, key: string): Promise<void> {
  await db.deleteFrom('auth_throttle').where('key', '=', key).execute();
}

/** One more completed trip for a renter. */
export async function incrementTotalTrips(db: Db, userId: string): Promise<void> {
  await db.updateTable('users').set((eb) => ({ total_trips: eb('total_trips', '+', 1) })).where('id', '=', userId).execute();
}

// ---- Pruning (jobs/prune.job.ts): each is one DELETE past a cutoff, so running it twice is harmless ----
/** Sessions that expired, or were revoked, before `cutoff`. Returns the count. */
export async function deleteSessionsEndedBefore(db: Db, cutoff: Date): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Reset tokens that were used, or expired, before `cutoff`. Returns the count. */
export async function deleteResetTokensEndedBefore(db: Db, cutoff: Date): Promise<number> {
  const result = await db
    .deleteFrom('password_reset_tokens')
    .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('used_at', '<', cutoff)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Throttles whose window started before `windowCutoff` and whose lock (if any) ended before
 * `lockCutoff`: they no longer count anything (a new event starts a fresh window). Returns the count.
 */
export async function deleteIdleThrottles(db: Db, windowCutoff: Date, lockCutoff: Date): Promise<number> {
  const result = await db
    .deleteFrom('auth_throttle')
    .where('window_started_at', '<', windowCutoff)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', lockCutoff)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
