// SQL for users, sessions, reset tokens, documents and throttles.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/connection';
import type { NewUser, SignInThrottleTable, UserDocumentRow, UserRow, UserUpdate } from '../../db/schema';

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

// ---- Sign-in links (the rules: auth.service.ts; docs/decisions/030) ----
export async function insertSignInLink(db: Db, link: { user_id: string; token_hash: string; expires_at: Date }): Promise<void> {
  await db.insertInto('sign_in_links').values(link).execute();
}

/**
 * Uses a link up, in one statement: it must be unused, unexpired at `now`, and its account open.
 * Concurrent uses of one link queue on its row and only the first gets its user id back.
 */
export async function consumeSignInLink(db: Db, tokenHash: string, now: Date): Promise<string | undefined> {
  const row = await db
    .updateTable('sign_in_links')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('deleted_at', 'is', null))
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** Ends every unused link of a user (one was used, or the password was reset). */
export async function invalidateSignInLinks(db: Db, userId: string, now: Date): Promise<void> {
  await db.updateTable('sign_in_links').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
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
  doc: Pick<UserDocumentRow, 'user_id' | 'type' | 'storage_key' | 'original_name' | 'mime_type' | 'size_bytes'> & { uploaded_at: Date },
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
        // A new file: live, and sealed by the store (the sealing sweep confirms it; decision 050).
        file_erased_at: null,
        erasure_reason: null,
        encrypted: false,
      }),
    )
    .execute();
}

// ---- Throttles (the rules: sign-in-throttling.ts, applied by auth.service.ts) ----
export type SignInThrottleRow = Selectable<SignInThrottleTable>;

const ts = (date: Date) => sql`${date}::timestamptz`;

/**
 * Counts one sign-in attempt for a key in one statement: a new key starts at 1, a key whose window
 * (from its first failure) is over restarts at 1. With `refuseWhileWaiting`, a key whose wait has
 * not ended is left untouched and nothing is returned: concurrent attempts queue on the row, so
 * each sees the ones before it. The caller then sets the new wait (extendSignInWait) in the same
 * transaction. The previous wait is kept, to be restored if the attempt turns out a success.
 */
/**
 * "No wait" on a new key: a moment long past, not the attempt's own `now`. Parallel attempts take
 * their `now` before they queue on the row's lock, so a later one may carry an earlier `now`; a
 * first row waiting "until now" would refuse it as if the key had to wait.
 */
const NO_WAIT = sql`to_timestamp(0)`;

export async function countSignInAttempt(
  db: Db,
  key: string,
  now: Date,
  windowMs: number,
  refuseWhileWaiting: boolean,
): Promise<SignInThrottleRow | undefined> {
  const restarts = sql`t.window_started_at <= ${ts(new Date(now.getTime() - windowMs))}`;
  const result = await sql<SignInThrottleRow>`
    INSERT INTO sign_in_throttle AS t (key, failures, window_started_at, last_failed_at, wait_until, prev_wait_until)
    VALUES (${key}, 1, ${ts(now)}, ${ts(now)}, ${NO_WAIT}, ${NO_WAIT})
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN ${restarts} THEN 1 ELSE t.failures + 1 END,
      window_started_at = CASE WHEN ${restarts} THEN ${ts(now)} ELSE t.window_started_at END,
      last_failed_at = ${ts(now)},
      prev_wait_until = t.wait_until
    ${refuseWhileWaiting ? sql`WHERE t.wait_until <= ${ts(now)}` : sql``}
    RETURNING *
  `.execute(db);
  return result.rows[0];
}

/**
 * Counts one more consecutive failure for a key unless it already holds `cap`, in one statement:
 * concurrent attempts queue on the row, so exactly `cap` get through however many arrive at once.
 * Returns the count with this attempt, or undefined at the cap (the row is left as it was). The
 * count has no window: only deleting the key (the owner signed in) starts it again.
 */
export async function countConsecutiveFailure(db: Db, key: string, now: Date, cap: number): Promise<number | undefined> {
  const result = await sql<{ failures: number }>`
    INSERT INTO sign_in_throttle AS t (key, failures, window_started_at, last_failed_at, wait_until, prev_wait_until)
    VALUES (${key}, 1, ${ts(now)}, ${ts(now)}, ${NO_WAIT}, ${NO_WAIT})
    ON CONFLICT (key) DO UPDATE SET failures = t.failures + 1, last_failed_at = ${ts(now)}
    WHERE t.failures < ${cap}::integer
    RETURNING failures
  `.execute(db);
  return result.rows[0]?.failures;
}

/** Makes a key wait until `until`, unless it already waits longer. */
export async function extendSignInWait(db: Db, key: string, until: Date): Promise<void> {
  await db
    .updateTable('sign_in_throttle')
    .set({ wait_until: sql`greatest(wait_until, ${ts(until)})` })
    .where('key', '=', key)
    .execute();
}

/**
 * Takes back `count` counted failures of a key after a success, and its wait with them when no
 * other attempt was counted since (`attemptAt` is still its last); otherwise the later attempt's
 * wait stands.
 */
export async function refundSignInFailures(db: Db, key: string, count: number, attemptAt: Date): Promise<void> {
  await db
    .updateTable('sign_in_throttle')
    .set({
      failures: sql`greatest(failures - ${count}::integer, 0)`,
      wait_until: sql`CASE WHEN last_failed_at = ${ts(attemptAt)} THEN prev_wait_until ELSE wait_until END`,
    })
    .where('key', '=', key)
    .execute();
}

export async function deleteSignInThrottles(db: Db, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.deleteFrom('sign_in_throttle').where('key', 'in', keys).execute();
}

export function findSignInThrottles(db: Db, keys: string[]): Promise<SignInThrottleRow[]> {
  if (keys.length === 0) return Promise.resolve([]);
  return db.selectFrom('sign_in_throttle').selectAll().where('key', 'in', keys).execute();
}

/**
 * Grants one request that mails a link (a reset or a sign-in link) to a key if fewer than `max`
 * were granted in the `windowMs` before `now`, in one statement: the moments granted are kept
 * (older ones dropped as it goes), and a refused request changes nothing. Concurrent requests
 * queue on the row.
 */
export async function grantMailRequest(db: Db, key: string, now: Date, windowMs: number, max: number): Promise<boolean> {
  const since = ts(new Date(now.getTime() - windowMs));
  const result = await sql<{ key: string }>`
    INSERT INTO reset_request_throttle AS t (key, granted_at)
    VALUES (${key}, ARRAY[${ts(now)}])
    ON CONFLICT (key) DO UPDATE SET
      granted_at = array_append(ARRAY(SELECT g FROM unnest(t.granted_at) AS g WHERE g > ${since} ORDER BY g), ${ts(now)})
    WHERE (SELECT count(*) FROM unnest(t.granted_at) AS g WHERE g > ${since}) < ${max}::integer
    RETURNING key
  `.execute(db);
  return result.rows.length === 1;
}

/** One more completed trip for a renter. */
export async function incrementTotalTrips(db: Db, userId: string): Promise<void> {
  await db.updateTable('users').set((eb) => ({ total_trips: eb('total_trips', '+', 1) })).where('id', '=', userId).execute();
}

// ---- Pruning (prune.job.ts): each is one DELETE past a cutoff, so running it twice is harmless ----
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

/** Sign-in links used, or expired, before `cutoff`. Returns the count. */
export async function deleteSignInLinksEndedBefore(db: Db, cutoff: Date): Promise<number> {
  const result = await db
    .deleteFrom('sign_in_links')
    .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('used_at', '<', cutoff)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Sign-in throttles that no longer count anything (the next attempt starts afresh), by the keys'
 * kinds: windowed keys whose window started before `windowCutoff` and whose wait ended before
 * `waitCutoff`; consecutive counts (keys under `runsPrefix`) whose last failure is before
 * `windowCutoff`, except those under `keptRunsPrefix`, which only their owner's sign-in ends.
 * Returns the count.
 */
export async function deleteIdleSignInThrottles(
  db: Db,
  cutoffs: { windowCutoff: Date; waitCutoff: Date; runsPrefix: string; keptRunsPrefix: string },
): Promise<number> {
  const { windowCutoff, waitCutoff, runsPrefix, keptRunsPrefix } = cutoffs;
  const result = await db
    .deleteFrom('sign_in_throttle')
    .where((eb) =>
      eb.or([
        eb.and([eb('key', 'not like', `${runsPrefix}%`), eb('window_started_at', '<', windowCutoff), eb('wait_until', '<', waitCutoff)]),
        eb.and([eb('key', 'like', `${runsPrefix}%`), eb('key', 'not like', `${keptRunsPrefix}%`), eb('last_failed_at', '<', windowCutoff)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Reset throttles whose newest grant is older than `cutoff`. Returns the count. */
export async function deleteIdleResetThrottles(db: Db, cutoff: Date): Promise<number> {
  const result = await db
    .deleteFrom('reset_request_throttle')
    .where(sql<boolean>`granted_at[cardinality(granted_at)] < ${ts(cutoff)}`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A host's rating (the reviews module computes it). */
export async function setUserRating(db: Db, userId: string, rating: number | null): Promise<void> {
  await db.updateTable('users').set({ rating }).where('id', '=', userId).execute();
}
