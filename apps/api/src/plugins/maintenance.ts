// Maintenance mode (decisions.md section 8): while the setting is on, writes under /api from
// anyone but an admin get 503. Reads keep working, and so do signing in and out, so that an
// admin can sign in to switch it off.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isAdmin, MAINTENANCE_MESSAGE } from '@karoo/shared';
import type { AppContext } from '../context';
import { AppError } from '../lib/app-error';
import { getSettings, isMaintenanceOn } from '../modules/settings';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Paystack's webhook too: money already taken is recorded even during maintenance.
const ALWAYS_OPEN = new Set(['/api/user/login', '/api/user/logout', '/api/payments/paystack/webhook']);

export function maintenanceGuard(ctx: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if (!WRITE_METHODS.has(request.method)) return;
    if (ALWAYS_OPEN.has(request.url.split('?')[0] ?? '')) return;
    if (isAdmin(request.user)) return;
    if (isMaintenanceOn(await getSettings(ctx))) throw new AppError(503, MAINTENANCE_MESSAGE);
  };
}
