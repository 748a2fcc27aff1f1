// HTTP for what the platform does under POPIA (decision 050): a person's own account deletion
// (/privacy/account-deletion), an administrator's deletion of a member (/user/delete/{id}, the same
// erasure) and the administrators' record of security compromises (/admin/breaches).
import {
  accountDeletedSchema,
  breachSchema,
  deleteAccountBodySchema,
  deletionPlanSchema,
  emptyEnvelope,
  envelope,
  newBreachBodySchema,
  safeText,
} from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser, routesFor } from '../../plugins/auth';
import { deleteAccountByAdmin, deleteOwnAccount, deletionPlan } from './account-deletion';
import { findBreach, listBreaches, recordBreach } from './breaches';

const tags = ['Privacy'];

export function dataProtectionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const strict = { rateLimit: { max: Math.max(10, Math.floor(ctx.env.RATE_LIMIT_PER_MINUTE / 10)), timeWindow: '1 minute' } };

    await app.register(
      routesFor('signed-in', async (signedIn) => {
        signedIn.get('/privacy/account-deletion', {
          schema: {
            tags,
            operationId: 'getAccountDeletionPlan',
            summary: 'What deleting my account would erase and keep, or why it cannot be deleted now',
            response: { 200: envelope(deletionPlanSchema) },
          },
        }, async (request) => ({ success: true as const, data: await deletionPlan(ctx, currentUser(request)) }));

        signedIn.post('/privacy/account-deletion', {
          config: strict,
          schema: {
            tags,
            operationId: 'deleteMyAccount',
            summary: 'Delete my account (POPIA s. 24), confirmed with my password',
            description:
              '409 with the reasons while a trip is under way or paid and to come, while Karoo owes the person money or they owe Karoo, or while a damage report is open. 400 for a wrong password. Erases the personal information, keeps financial records 5 years under an anonymous member, ends every session and emails a confirmation.',
            body: deleteAccountBodySchema,
            response: { 200: envelope(accountDeletedSchema) },
          },
        }, async (request) => ({
          success: true as const,
          message: 'Your account has been deleted. A confirmation is on its way to your email address.',
          data: await deleteOwnAccount(ctx, currentUser(request), request.body.password),
        }));
      }),
    );

    await app.register(
      routesFor('admin', async (admins) => {
        // The Users tab's Delete (api.md's path, kept): the person's own deletion, done by an administrator.
        admins.delete('/user/delete/:id', {
          schema: {
            tags: ['Users'],
            summary: 'Delete a user (admin; not admins): the same erasure as the person deleting their own account',
            description:
              '409 with the reasons while a trip is under way, while Karoo owes the person money or they owe Karoo, or while a damage report is open; 403 for an administrator. Erases the personal information everywhere, keeps financial records 5 years under an anonymous member, ends every session and emails the person that an administrator deleted the account.',
            params: z.object({ id: safeText('Id').min(1).max(100) }),
            response: { 200: emptyEnvelope },
          },
        }, async (request) => {
          await deleteAccountByAdmin(ctx, currentUser(request), request.params.id);
          return { success: true as const, message: 'User deleted', data: null };
        });

        admins.get('/admin/breaches', {
          schema: { tags, operationId: 'listBreaches', summary: 'Recorded security compromises, newest first', response: { 200: envelope(z.array(breachSchema)) } },
        }, async () => ({ success: true as const, data: await listBreaches(ctx) }));

        admins.get('/admin/breaches/:id', {
          schema: { tags, operationId: 'getBreach', summary: 'One recorded security compromise', params: z.object({ id: z.uuid({ error: 'Not a breach id' }) }), response: { 200: envelope(breachSchema) } },
        }, async (request) => ({ success: true as const, data: await findBreach(ctx, request.params.id) }));

        admins.post('/admin/breaches', {
          schema: {
            tags,
            operationId: 'recordBreach',
            summary: 'Record a security compromise and tell the people it affects (POPIA s. 22)',
            description: 'Audited as breach.recorded. The affected people get a notification and an email through the outbox, in batches on the job queue.',
            body: newBreachBodySchema,
            response: { 201: envelope(breachSchema) },
          },
        }, async (request, reply) => {
          const breach = await recordBreach(ctx, currentUser(request), request.body);
          return reply.status(201).send({ success: true as const, message: `Recorded. ${breach.affected} ${breach.affected === 1 ? 'person is' : 'people are'} being told.`, data: breach });
        });
      }),
    );
  };
}
