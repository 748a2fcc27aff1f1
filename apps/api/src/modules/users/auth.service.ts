// Sign-up, sign-in, sessions, sign-in links and password reset (document 1; decisions.md section 2;
// docs/decisions/023 and 030).
import {
  REMEMBER_ME_TTL_MS,
  RESET_LINK_TTL_MS,
  SESSION_TTL_MS,
  SIGN_IN_LINK_INVALID_MESSAGE,
  SIGN_IN_LINK_TTL_MS,
  type LoginBody,
  type RegisterBody,
} from '@karoo/shared';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import type { UserRow } from '../../db/schema';
import { inTransaction } from '../../events/domain-events';
import { badRequest, conflict, tooMany, unauthorized } from '../../lib/app-error';
import { renderMail, sendMail } from '../../lib/mail';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords';
import { hashToken, newToken } from '../../lib/tokens';
import {
  ACCOUNT_CAP,
  ACCOUNT_RULE,
  ADDRESS_RULE,
  describeWait,
  isPrivateSource,
  LONGEST_MAIL_REQUEST_WINDOW_MS,
  LONGEST_THROTTLE_WINDOW_MS,
  PAIR_RULE,
  RESET_MAIL_WINDOW_MS,
  RESET_MAILS_PER_ADDRESS,
  RESET_MAILS_PER_EMAIL,
  SIGN_IN_LINK_ADDRESS_WINDOW_MS,
  SIGN_IN_LINK_REQUESTS_PER_ADDRESS,
  SIGN_IN_LINK_WINDOW_MS,
  SIGN_IN_LINKS_PER_ACCOUNT,
  sourceOf,
  waitAfter,
} from './sign-in-throttling';
import * as repo from './users.repository';

export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

export async function register(ctx: AppContext, body: RegisterBody): Promise<UserRow> {
  const username = body.username.trim();
  const email = body.email.trim();
  if (await repo.isUsernameTaken(ctx.db, username)) {
    throw conflict('Username is already taken', { username: 'Username is already taken' });
  }
  if (await repo.isEmailTaken(ctx.db, email)) {
    throw conflict('An account with this email already exists', { email: 'An account with this email already exists' });
  }
  const passwordHash = await hashPassword(body.password);
  try {
    // The account and the record of what it accepted (the versions of the terms and privacy notice,
    // the marketing choice: decision 049) commit together.
    return await inTransaction(ctx, async (tx) => {
      const user = await repo.insertUser(tx.db, {
        username,
        email,
        full_name: body.full_name.trim(),
        password_hash: passwordHash,
        role: 'customer',
        verification_status: 'pending_verification',
        terms_accepted_at: tx.now,
        privacy_accepted_at: tx.now,
      });
      tx.emit({ type: 'user.registered', user: { id: user.id, username: user.username }, marketingOptIn: body.marketing_opt_in === true });
      return user;
    });
  } catch (error) {
    // Two sign-ups racing for one name: the unique index decides, and the loser gets the same 409.
    if ((error as { code?: string }).code === '23505') {
      throw conflict('Username or email is already registered');
    }
    throw error;
  }
}

export async function login(ctx: AppContext, body: LoginBody, meta: RequestMeta): Promise<{ user: UserRow; token: string }> {
  const now = ctx.clock.now();
  const user = await repo.findUserByLogin(ctx.db, body.username);
  // An unknown name is throttled exactly like an account, so the answers tell the two apart nowhere.
  const keys = signInKeys(accountRefOf(user, body.username), meta.ip);

  const pairFailures = await countSignInAttempt(ctx, keys, now);
  const isValid = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), body.password);
  if (!user || !isValid) throw unauthorized('Invalid credentials');
  await forgetSignInFailures(ctx, keys, pairFailures, now);

  const token = newToken();
  await repo.insertSession(ctx.db, {
    user_id: user.id,
    token_hash: hashToken(token),
    expires_at: new Date(now.getTime() + (body.remember ? REMEMBER_ME_TTL_MS : SESSION_TTL_MS)),
    user_agent: meta.userAgent?.slice(0, 300) ?? null,
    ip: meta.ip,
  });
  return { user, token };
}

// ---- Sign-in throttling (docs/decisions/023 and 030; the numbers: sign-in-throttling.ts) ----
/** What the throttles count by: the account, or the name typed when there is none. */
function accountRefOf(user: Pick<UserRow, 'id'> | undefined, typed: string): string {
  return user ? `user:${user.id}` : `name:${typed.trim().toLowerCase()}`;
}

/** The start of the key of an (account, address) pair. */
const pairPrefix = (accountRef: string) => `pair:${accountRef}|`;

/** Keys of consecutive-failure counts; an account's (not a typed unknown name's) is never pruned. */
const RUNS_PREFIX = 'consecutive:';
const ACCOUNT_RUNS_PREFIX = `${RUNS_PREFIX}user:`;

export const ACCOUNT_CAPPED_MESSAGE =
  'Too many failed sign-in attempts on this account: password sign-in is paused. Ask for a sign-in link by email to get in.';

interface SignInKeys {
  /** This account (or unknown name), whatever the address: its consecutive failures, capped (NIST). */
  run: string;
  /** This account (or unknown name) from this address: the growing wait a stranger's guesses earn. */
  pair: string;
  /** This address, whatever the account: credential stuffing (none for a private address). */
  address: string | null;
  /** This account, whatever the address: guessing spread over many addresses. */
  account: string;
}

/**
 * Every throttle key that names this account or what was typed for it (its usernames and emails,
 * earlier ones too), for the erasure of a deleted account (data-protection): the exact keys, and
 * the prefixes of its (account, address) pairs.
 */
export function throttleKeysOf(userId: string, typed: readonly string[]): { keys: string[]; pairPrefixes: string[] } {
  const values = [...new Set(typed.map((v) => v.trim().toLowerCase()).filter(Boolean))];
  const refs = [accountRefOf({ id: userId }, ''), ...values.map((v) => accountRefOf(undefined, v))];
  return {
    keys: [...refs.flatMap((ref) => [`${RUNS_PREFIX}${ref}`, `account:${ref}`, `sign-in-link:${ref}`]), ...values.map(resetMailKey)],
    pairPrefixes: refs.map(pairPrefix),
  };
}

/** The reset-mail counter of an address. */
const resetMailKey = (email: string) => `email:${email.trim().toLowerCase()}`;

function signInKeys(accountRef: string, ip: string | null): SignInKeys {
  const source = sourceOf(ip);
  return {
    run: `${RUNS_PREFIX}${accountRef}`,
    pair: `${pairPrefix(accountRef)}${source}`,
    address: isPrivateSource(source) ? null : `address:${source}`,
    account: `account:${accountRef}`,
  };
}

/** Thrown inside the counting transaction to undo it: the attempt is refused, not counted. */
class SignInWait extends Error {
  constructor(readonly key: 'capped' | 'pair' | 'address') {
    super('sign-in throttled');
  }
}

/**
 * Counts the attempt as a failure before the password is checked (a success takes it back), in one
 * transaction whose row locks make concurrent attempts queue: a burst of parallel guesses gets no
 * more checks than the same guesses one after another. Refuses with 429 when the account has
 * reached its cap of consecutive failures, or while the pair or the address must wait, counting
 * nothing. Returns the pair's failures including this attempt.
 */
async function countSignInAttempt(ctx: AppContext, keys: SignInKeys, now: Date): Promise<number> {
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      // The cap first: past it no password is checked, however long anyone waits (the keys are
      // always locked in this order: run, pair, address, account).
      if ((await repo.countConsecutiveFailure(trx, keys.run, now, ACCOUNT_CAP)) === undefined) throw new SignInWait('capped');
      const pair = await repo.countSignInAttempt(trx, keys.pair, now, PAIR_RULE.windowMs, true);
      if (!pair) throw new SignInWait('pair');
      const address = keys.address ? await repo.countSignInAttempt(trx, keys.address, now, ADDRESS_RULE.windowMs, true) : null;
      if (keys.address && !address) throw new SignInWait('address');
      // The account's own count never refuses: it only lengthens the wait of an address that failed.
      const account = await repo.countSignInAttempt(trx, keys.account, now, ACCOUNT_RULE.windowMs, false);
      const pairWait = Math.max(waitAfter(PAIR_RULE, pair.failures), waitAfter(ACCOUNT_RULE, account?.failures ?? 0));
      if (pairWait > 0) await repo.extendSignInWait(trx, keys.pair, new Date(now.getTime() + pairWait));
      const addressWait = address ? waitAfter(ADDRESS_RULE, address.failures) : 0;
      if (keys.address && addressWait > 0) await repo.extendSignInWait(trx, keys.address, new Date(now.getTime() + addressWait));
      return pair.failures;
    });
  } catch (error) {
    if (!(error instanceof SignInWait)) throw error;
    if (error.key === 'capped') throw tooMany(ACCOUNT_CAPPED_MESSAGE);
    const [row] = await repo.findSignInThrottles(ctx.db, [keys[error.key] ?? keys.pair]);
    const wait = describeWait((row ? new Date(row.wait_until).getTime() : 0) - now.getTime());
    throw tooMany(
      error.key === 'address'
        ? `Too many failed sign-in attempts from your network. Please try again in ${wait}.`
        : `Too many failed sign-in attempts. Please try again in ${wait}.`,
    );
  }
}

/**
 * A success: the account's run of consecutive failures ends, the failures of this account from
 * this address are forgotten (NIST SP 800-63B 5.2.2) and taken off the account's count; the address
 * only gets this attempt back, since a stuffing run succeeds now and then.
 */
async function forgetSignInFailures(ctx: AppContext, keys: SignInKeys, pairFailures: number, attemptAt: Date): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await repo.deleteSignInThrottles(trx, [keys.run]);
    await repo.deleteSignInThrottles(trx, [keys.pair]);
    if (keys.address) await repo.refundSignInFailures(trx, keys.address, 1, attemptAt);
    await repo.refundSignInFailures(trx, keys.account, pairFailures, attemptAt);
  });
}

/** A session is touched at most once a minute, to keep writes cheap. */
const SESSION_TOUCH_MS = 60_000;

/**
 * The user and session behind a bearer token, or null when the token is unknown, expired or
 * revoked, or its user was deleted. Records the session's use.
 */
export async function authenticate(ctx: AppContext, token: string): Promise<{ user: UserRow; sessionId: string } | null> {
  const now = ctx.clock.now();
  const row = await repo.findSessionUser(ctx.db, hashToken(token), now);
  if (!row) return null;
  const { session_id, session_last_used_at, ...user } = row;
  if (now.getTime() - new Date(session_last_used_at).getTime() > SESSION_TOUCH_MS) {
    await repo.touchSession(ctx.db, session_id, now);
  }
  return { user, sessionId: session_id };
}

export async function logout(ctx: AppContext, sessionId: string): Promise<void> {
  await repo.revokeSession(ctx.db, sessionId, ctx.clock.now());
}

/**
 * The owner proved control of the account's email (a password reset or a sign-in link): its run of
 * consecutive failures and its failure count go, and so does the wait of the address that proved it.
 * A stranger's addresses keep theirs. In `db`, the caller's transaction.
 */
async function forgetAccountFailures(db: Db, userId: string, ip: string | null): Promise<void> {
  const keys = signInKeys(`user:${userId}`, ip);
  // One statement each, in the order sign-in locks them (run, pair, account): the two never deadlock.
  await repo.deleteSignInThrottles(db, [keys.run]);
  await repo.deleteSignInThrottles(db, [keys.pair]);
  await repo.deleteSignInThrottles(db, [keys.account]);
}

/** A request that mails a link is granted by each of these counters, or by none. */
interface MailRequestGrant {
  key: string;
  windowMs: number;
  max: number;
}

/** Thrown inside the granting transaction to undo the grants made before a refusal. */
class MailRequestRefused extends Error {}

/** Grants a mail request by every counter in one transaction, or (refused by any) by none. */
async function isMailRequestGranted(ctx: AppContext, now: Date, grants: MailRequestGrant[]): Promise<boolean> {
  return ctx.db
    .transaction()
    .execute(async (trx) => {
      for (const grant of grants) {
        if (!(await repo.grantMailRequest(trx, grant.key, now, grant.windowMs, grant.max))) throw new MailRequestRefused();
      }
      return true;
    })
    .catch((error: unknown) => {
      if (error instanceof MailRequestRefused) return false;
      throw error;
    });
}

/** The per-address grant of a mail request, none for a private source (a proxy TRUST_PROXY does not name would be everyone). */
function addressGrant(prefix: string, ip: string | null, windowMs: number, max: number): MailRequestGrant[] {
  const source = sourceOf(ip);
  return isPrivateSource(source) ? [] : [{ key: `${prefix}address:${source}`, windowMs, max }];
}

/**
 * Answers the same whether or not the address has an account, and whether or not it is throttled,
 * so it reveals nothing: at most RESET_MAILS_PER_EMAIL mails to one email and RESET_MAILS_PER_ADDRESS
 * requests from one source address (not a private one) within any hour; past that the request
 * quietly mails nothing. Links already mailed keep working (only a reset or their hour ends them).
 */
export async function requestPasswordReset(ctx: AppContext, email: string, meta: Pick<RequestMeta, 'ip'> = { ip: null }): Promise<void> {
  const now = ctx.clock.now();
  const granted = await isMailRequestGranted(ctx, now, [
    { key: resetMailKey(email), windowMs: RESET_MAIL_WINDOW_MS, max: RESET_MAILS_PER_EMAIL },
    ...addressGrant('', meta.ip, RESET_MAIL_WINDOW_MS, RESET_MAILS_PER_ADDRESS),
  ]);
  if (!granted) return;

  const user = await repo.findUserByEmail(ctx.db, email);
  if (!user) return;

  const token = newToken();
  await repo.insertResetToken(ctx.db, {
    user_id: user.id,
    token_hash: hashToken(token),
    expires_at: new Date(now.getTime() + RESET_LINK_TTL_MS),
  });
  const url = `${ctx.env.APP_URL}/reset-password?token=${encodeURIComponent(token)}`;
  const mail = await renderMail({
    greeting: `Hi ${user.full_name},`,
    paragraphs: [
      'Someone asked to reset the password of your Karoo account. If it was you, use the link below to choose a new one.',
      'The link works once and expires in 1 hour. If you did not ask for this, you can ignore this email: your password stays the same.',
    ],
    action: { label: 'Reset your password', url },
  });
  await sendMail(ctx, { to: user.email, subject: 'Reset your Karoo password', ...mail });
}

export async function checkResetToken(ctx: AppContext, token: string) {
  const found = await repo.findUsableResetToken(ctx.db, hashToken(token), ctx.clock.now());
  if (!found) throw badRequest('This reset link is invalid or has expired. Please request a new one.');
  return found;
}

/**
 * Sets the new password, uses the link up, and revokes every session and every other link. The
 * owner proved control of the email: the account's failure count and this address's wait go (a
 * stranger's addresses keep theirs).
 */
export async function resetPassword(ctx: AppContext, token: string, newPassword: string, meta: Pick<RequestMeta, 'ip'> = { ip: null }): Promise<void> {
  const found = await checkResetToken(ctx, token);
  const passwordHash = await hashPassword(newPassword);
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.consumeResetToken(trx, found.id, now))) {
      throw badRequest('This reset link is invalid or has expired. Please request a new one.');
    }
    await repo.updateUser(trx, found.user_id, { password_hash: passwordHash }, now);
    await repo.invalidateResetTokens(trx, found.user_id, now);
    await repo.revokeAllSessions(trx, found.user_id, now);
    await forgetAccountFailures(trx, found.user_id, meta.ip);
  });
}

// ---- Sign-in links (docs/decisions/030-proxies-and-sign-in-links.md) ----

/**
 * Mails a one-time sign-in link to the account the typed name or email belongs to. It answers the
 * same for any name, and consults no sign-in throttle: it is the way in for an owner whose password
 * sign-in waits or is capped. At most SIGN_IN_LINKS_PER_ACCOUNT links per account within a link's
 * lifetime, and SIGN_IN_LINK_REQUESTS_PER_ADDRESS requests per (public) address an hour; past them
 * the request quietly mails nothing. Unknown names are counted alike.
 */
export async function requestSignInLink(ctx: AppContext, login: string, meta: Pick<RequestMeta, 'ip'>): Promise<void> {
  const now = ctx.clock.now();
  const user = await repo.findUserByLogin(ctx.db, login);
  const granted = await isMailRequestGranted(ctx, now, [
    { key: `sign-in-link:${accountRefOf(user, login)}`, windowMs: SIGN_IN_LINK_WINDOW_MS, max: SIGN_IN_LINKS_PER_ACCOUNT },
    ...addressGrant('sign-in-link:', meta.ip, SIGN_IN_LINK_ADDRESS_WINDOW_MS, SIGN_IN_LINK_REQUESTS_PER_ADDRESS),
  ]);
  if (!granted || !user) return;

  const token = newToken();
  await inTransaction(ctx, async (tx) => {
    await repo.insertSignInLink(tx.db, { user_id: user.id, token_hash: hashToken(token), expires_at: new Date(tx.now.getTime() + SIGN_IN_LINK_TTL_MS) });
    // The mail (the notifications module's account.notices.ts) is queued with the link's row: a link is stored if and only if it is mailed.
    tx.emit({
      type: 'user.sign_in_link_requested',
      user: { id: user.id, email: user.email, full_name: user.full_name },
      url: `${ctx.env.APP_URL}/sign-in-link?token=${encodeURIComponent(token)}`,
    });
  });
}

/**
 * Signs in with a mailed link: it must be unused and unexpired, and is used up with every other
 * link of the account. Whoever holds it controls the account's email, so the account's consecutive
 * failures and failure count go, with the wait of this address (forgetAccountFailures). No password
 * throttle applies. A standard session (not "remember me").
 */
export async function signInWithLink(ctx: AppContext, token: string, meta: RequestMeta): Promise<{ user: UserRow; token: string }> {
  const now = ctx.clock.now();
  const sessionToken = newToken();
  const user = await ctx.db.transaction().execute(async (trx) => {
    const userId = await repo.consumeSignInLink(trx, hashToken(token), now);
    const found = userId ? await repo.findUserByIdOrUsername(trx, userId) : undefined;
    if (!found) throw badRequest(SIGN_IN_LINK_INVALID_MESSAGE);
    await repo.invalidateSignInLinks(trx, found.id, now);
    await forgetAccountFailures(trx, found.id, meta.ip);
    await repo.insertSession(trx, {
      user_id: found.id,
      token_hash: hashToken(sessionToken),
      expires_at: new Date(now.getTime() + SESSION_TTL_MS),
      user_agent: meta.userAgent?.slice(0, 300) ?? null,
      ip: meta.ip,
    });
    return found;
  });
  return { user, token: sessionToken };
}

/**
 * A signed-in user changes their own password: the current one must match; the new one follows the
 * reset rules (checked by the route's schema). Every other session and every reset link end; the
 * session that asked stays signed in.
 */
export async function changePassword(
  ctx: AppContext,
  user: UserRow,
  sessionId: string,
  body: { currentPassword: string; newPassword: string },
): Promise<void> {
  const message = 'Current password is incorrect';
  if (!(await verifyPassword(user.password_hash, body.currentPassword))) throw badRequest(message, { currentPassword: message });
  const passwordHash = await hashPassword(body.newPassword);
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateUser(trx, user.id, { password_hash: passwordHash }, now);
    await repo.invalidateResetTokens(trx, user.id, now);
    await repo.revokeOtherSessions(trx, user.id, sessionId, now);
  });
}

/** How long ended records are kept (the numbers and their reasons: prune.job.ts). */
export interface AuthRetention {
  /** After a session expired or was revoked. */
  sessionsMs: number;
  /** After a reset or sign-in link was used or expired. */
  resetTokensMs: number;
  /** After a throttle's window and its wait, if any, ended. */
  throttlesMs: number;
}

/** Deletes the sessions, reset and sign-in links and throttles that ended longer ago than `retention` says. */
export async function pruneEndedAuthRecords(ctx: AppContext, retention: AuthRetention) {
  const now = ctx.clock.now().getTime();
  const before = (ms: number) => new Date(now - ms);
  return {
    sessions: await repo.deleteSessionsEndedBefore(ctx.db, before(retention.sessionsMs)),
    resetTokens: await repo.deleteResetTokensEndedBefore(ctx.db, before(retention.resetTokensMs)),
    signInLinks: await repo.deleteSignInLinksEndedBefore(ctx.db, before(retention.resetTokensMs)),
    throttles:
      (await repo.deleteIdleSignInThrottles(ctx.db, {
        windowCutoff: before(LONGEST_THROTTLE_WINDOW_MS + retention.throttlesMs),
        waitCutoff: before(retention.throttlesMs),
        runsPrefix: RUNS_PREFIX,
        keptRunsPrefix: ACCOUNT_RUNS_PREFIX,
      })) + (await repo.deleteIdleResetThrottles(ctx.db, before(LONGEST_MAIL_REQUEST_WINDOW_MS + retention.throttlesMs))),
  };
}
