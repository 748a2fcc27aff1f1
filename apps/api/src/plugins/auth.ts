// Bearer-token sessions (decisions.md section 2): opaque tokens, stored hashed, checked per request.
// A missing or unknown token leaves the request anonymous; the guard of a route group decides what
// that means (routesFor, below: one guard per group of routes, never one per route).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isAdmin } from '@karoo/shared';
import type { UserRow } from '../db/schema';
import { forbidden, unauthorized } from '../lib/app-error';

declare module 'fastify' {
  interface FastifyRequest {
    user: UserRow | null;
    sessionId: string | null;
    /** True when a token was sent but is unknown, expired or revoked. */
    hasStaleToken: boolean;
  }
}

/** Who a session token belongs to (the users module's `authenticate`, passed in by app.ts). */
export type Authenticate = (token: string) => Promise<{ user: UserRow; sessionId: string } | null>;

export function registerAuth(app: FastifyInstance, authenticate: Authenticate) {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('hasStaleToken', false);

  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) return;
    const token = header.slice(7).trim();
    if (!token || token === 'null' || token === 'undefined') return;
    const session = await authenticate(token);
    if (!session) {
      request.hasStaleToken = true;
      return;
    }
    request.user = session.user;
    request.sessionId = session.sessionId;
  });
}

async function requireUser(request: FastifyRequest, _reply: FastifyReply) {
  if (!request.user) {
    throw unauthorized(request.hasStaleToken ? 'Your session has expired. Please sign in again.' : undefined);
  }
}

async function requireAdmin(request: FastifyRequest, reply: FastifyReply) {
  await requireUser(request, reply);
  if (!isAdmin(request.user)) throw forbidden('Administrator access is required.');
}

/** Who may call the routes of a group: anyone signed in (401 otherwise), or admins (then 403). */
export type Access = 'signed-in' | 'admin';

/**
 * A group of routes only `access` may call, declared in one place the way fastify/demo's
 * autohooks guard a folder: `app.register(routesFor('admin', async (admins) => { admins.get(...) }))`.
 * The group is an encapsulated scope: its guard covers its own routes and nothing else, and those
 * routes are documented as needing a bearer token in the OpenAPI document, so the guard and its
 * documentation cannot drift apart. The guard is a preHandler, so a request is validated first
 * (a bad body is 400 before it is 401), and an admin route answers 401 before 403.
 */
export function routesFor(access: Access, routes: FastifyPluginAsyncZod): FastifyPluginAsyncZod {
  return async (scope, options) => {
    scope.addHook('preHandler', access === 'admin' ? requireAdmin : requireUser);
    scope.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, security: [{ bearerAuth: [] }] };
    });
    await routes(scope, options);
  };
}

/** The signed-in user inside a guarded route. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized();
  return request.user;
}
