// Sign-up, sign-in, sessions and password reset (document 1; decisions.md section 2).
import {
  LOGIN_LOCK_MS,
  LOGIN_MAX_FAILURES,
  REMEMBER_ME_TTL_MS,
  RESET_LINK_TTL_MS,
  RESET_MAX_REQUESTS,
  RESET_WINDOW_MS,
  SESSION_TTL_MS,
  type LoginBody,
  type RegisterBody,
} from '@karoo/shared';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { badRequest, conflict, tooMany, unauthorized } from '../../lib/app-error';
import { renderMail } from '../../lib/mail';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords';
import { hashToken, newToken } from '../../lib/tokens';
import * as repo from './users.repository';

export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

const minutesUntil = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export async function register(ctx: AppContext, body: RegisterBody): Promise<UserRow> {
  const username = body.username.trim();
  const email = body.email.trim();
  if (await repo.isUsernameTaken(ctx.db, username)) {
    throw conflict('Username is already taken', { username: 'Username is already taken' });
  }
  if (await repo.isEmailTaken(ctx.db, email)) {
    throw conflict('An account with this email already exists', { email: 'An account with this email already exists' });
  }
  const now = ctx.clock.now();
  try {
    return await repo.insertUser(ctx.db, {
      username,
      email,
      full_name: body.full_name.trim(),
      password_hash: await hashPassword(body.password),
      role: 'customer',
      verification_status: 'pending_verification',
      terms_accepted_at: now,
      privacy_accepted_at: now,
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
  const throttleKey = user ? `login:user:${user.id}` : `login:name:${body.username.trim().toLowerCase()}`;

  const throttle = await repo.findThrottle(ctx.db, throttleKey);
  if (throttle?.locked_until && new Date(throttle.locked_until) > now) {
    const minutes = minutesUntil(new Date(throttle.locked_until), now);
    throw tooMany(`Too many failed sign-in attempts. Please try again in ${plural(minutes, 'minute')}.`);
  }

  const isValid = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), body.password);
  if (!user || !isValid) {
    await repo.countThrottleEvent(ctx.db, throttleKey, now, LOGIN_LOCK_MS, LOGIN_MAX_FAILURES, LOGIN_LOCK_MS);
    throw unauthorized('Invalid credentials');
  }
  await repo.clearThrottle(ctx.db, throttleKey);

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

/** Answers the same whether or not the address has an account, so it reveals nothing. */
export async function requestPasswordReset(ctx: AppContext, email: string): Promise<void> {
  const now = ctx.clock.now();
  const key = `reset:${email.trim().toLowerCase()}`;
  const existing = await repo.findThrottle(ctx.db, key);
  if (existing?.locked_until && new Date(existing.locked_until) > now) {
    const minutes = minutesUntil(new Date(existing.locked_until), now);
    throw tooMany(`Too many reset requests for this address. Please try again in ${plural(minutes, 'minute')}.`);
  }
  const counted = await repo.countThrottleEvent(ctx.db, key, now, RESET_WINDOW_MS, RESET_MAX_REQUESTS + 1, RESET_WINDOW_MS);
  if (counted.failures > RESET_MAX_REQUESTS) {
    const until = counted.locked_until ? new Date(counted.locked_until) : new Date(now.getTime() + RESET_WINDOW_MS);
    throw tooMany(`Too many reset requests for this address. Please try again in ${plural(minutesUntil(until, now), 'minute')}.`);
  }

  const user = await repo.findUserByEmail(ctx.db, email);
  if (!user) return;

  const token = newToken();
  await repo.insertResetToken(ctx.db, {
    user_id: user.id,
    token_hash: hashToken(token),
    expires_at: new Date(now.getTime() + RESET_LINK_TTL_MS),
  });
  const url = `${ctx.env.APP_URL}/reset-password?token=${encodeURIComponent(token)}`;
  const mail = renderMail({
    greeting: `Hi ${user.full_name},`,
    paragraphs: [
      'Someone asked to reset the password of your Karoo account. If it was you, use the link below to choose a new one.',
      'The link works once and expires in 1 hour. If you did not ask for this, you can ignore this email: your password stays the same.',
    ],
    action: { label: 'Reset your password', url },
  });
  await ctx.mailer.send({ to: user.email, subject: 'Reset your Karoo password', ...mail });
}

export async function checkResetToken(ctx: AppContext, token: string) {
  const found = await repo.findUsableResetToken(ctx.db, hashToken(token), ctx.clock.now());
  if (!found) throw badRequest('This reset link is invalid or has expired. Please request a new one.');
  return found;
}

/** Sets the new password, uses the link up, and revokes every session and every other link. */
export async function resetPassword(ctx: AppContext, token: string, newPassword: string): Promise<void> {
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
    await repo.clearThrottle(trx, `login:user:${found.user_id}`);
  });
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

/** The longest throttle window (sign-in failures, reset requests): once it is over a throttle counts nothing. */
const LONGEST_THROTTLE_WINDOW_MS = Math.max(LOGIN_LOCK_MS, RESET_WINDOW_MS);

/** How long ended records are kept (the numbers and their reasons: jobs/prune.job.ts). */
export interface AuthRetention {
  /** After a session expired or was revoked. */
  sessionsMs: number;
  /** After a reset link was used or expired. */
  resetTokensMs: number;
  /** After a throttle's window and its lock, if any, ended. */
  throttlesMs: number;
}

/** Deletes the sessions, reset links and throttles that ended longer ago than `retention` says. */
export async function pruneEndedAuthRecords(ctx: AppContext, retention: AuthRetention) {
  const now = ctx.clock.now().getTime();
  const before = (ms: number) => new Date(now - ms);
  return {
    sessions: await repo.deleteSessionsEndedBefore(ctx.db, before(retention.sessionsMs)),
    resetTokens: await repo.deleteResetTokensEndedBefore(ctx.db, before(retention.resetTokensMs)),
    throttles: await repo.deleteIdleThrottles(ctx.db, before(LONGEST_THROTTLE_WINDOW_MS + retention.throttlesMs), before(retention.throttlesMs)),
  };
}
