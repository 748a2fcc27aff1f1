// Bearer-token sessions (decisions.md section 2): opaque tokens, stored hashed, checked per request.
// A missing or unknown token leaves the request anonymous; guards decide what that means.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAdmin, isHost } from '@karoo/shared';
import type { AppContext } from '../context';
import type { UserRow } from '../db/schema';
import { forbidden, unauthorized } from '../lib/app-error';
import { hashToken } from '../lib/tokens';

declare module 'fastify' {
  interface FastifyRequest {
    user: UserRow | null;
    sessionId: string | null;
    /** True when a token was sent but is unknown, expired or revoked. */
    hasStaleToken: boolean;
  }
}

export function registerAuth(app: FastifyInstance, ctx: AppContext) {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('hasStaleToken', false);

  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) return;
    const token = header.slice(7).trim();
    if (!token || token === 'null' || token === 'undefined') return;
    const now = ctx.clock.now();
    const row = await ctx.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .select(['sessions.id as session_id', 'sessions.last_used_at as session_last_used_at'])
      .where('sessions.token_hash', '=', hashToken(token))
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', now)
      .where('users.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) {
      request.hasStaleToken = true;
      return;
    }
    const { session_id, session_last_used_at, ...user } = row;
    request.user = user;
    request.sessionId = session_id;
    // Touch the session at most once a minute to keep writes cheap.
    if (now.getTime() - new Date(session_last_used_at).getTime() > 60_000) {
      await ctx.db.updateTable('sessions').set({ last_used_at: now }).where('id', '=', session_id).execute();
    }
  });
}

export async function requireUser(request: FastifyRequest, _reply: FastifyReply) {
  if (!request.user) {
    throw unauthorized(request.hasStaleToken ? 'Your session has expired. Please sign in again.' : undefined);
  }
}

export async function requireAdmin(request: FastifyRequest, reply: FastifyReply) {
  await requireUser(request, reply);
  if (!isAdmin(request.user)) throw forbidden('Administrator access is required.');
}

export async function requireHost(request: FastifyRequest, reply: FastifyReply) {
  await requireUser(request, reply);
  if (!isHost(request.user) && !isAdmin(request.user)) throw forbidden('Host access is required.');
}

/** The signed-in user inside a guarded route. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized();
  return request.user;
}
