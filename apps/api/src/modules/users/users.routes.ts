// HTTP for /api/user: schema in, service call, schema out.
import {
  adminUserListMetaSchema,
  adminUserListQuerySchema,
  changePasswordBodySchema,
  createUserBodySchema,
  DOCUMENT_TYPES,
  documentsSchema,
  emptyEnvelope,
  envelope,
  forgotPasswordBodySchema,
  loginBodySchema,
  loginResponseSchema,
  registerBodySchema,
  resetPasswordBodySchema,
  safeText,
  SIGN_IN_LINK_TTL_MS,
  signInLinkRequestBodySchema,
  signInWithLinkBodySchema,
  updateUserBodySchema,
  userSchema,
  userWithDocumentsSchema,
  verificationBodySchema,
  verificationStatusSchema,
} from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { forbidden } from '../../lib/app-error';
import { documentExtension } from '../../lib/file-types';
import { privateFileQuerySchema, readSingleUpload, sendPrivateFile } from '../../lib/uploads';
import { currentUser, routesFor } from '../../plugins/auth';
import { fileAnswer } from '../../plugins/openapi';
import * as auth from './auth.service';
import * as users from './users.service';
import { toUser, toUserWithDocuments } from './users.mapper';

const idParams = z.object({ id: safeText('Id').min(1).max(100) });
const tags = ['Users'];

export function usersRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const strict = { rateLimit: { max: Math.max(10, Math.floor(ctx.env.RATE_LIMIT_PER_MINUTE / 10)), timeWindow: '1 minute' } };

    // ---- Public: signing up, signing in and resetting a password ----
    app.post('/user/register', {
      config: strict,
      schema: { tags, summary: 'Create an account', body: registerBodySchema, response: { 201: envelope(userSchema) } },
    }, async (request, reply) => {
      const user = await auth.register(ctx, request.body);
      return reply.status(201).send({
        success: true,
        message: 'Account created. Your account is pending verification: sign in to upload your documents.',
        data: toUser(user),
      });
    });

    app.post('/user/login', {
      config: strict,
      schema: { tags, summary: 'Sign in with username or email', body: loginBodySchema, response: { 200: envelope(loginResponseSchema) } },
    }, async (request) => {
      const { user, token } = await auth.login(ctx, request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      return { success: true as const, message: 'Login successful', data: { user: toUser(user), token } };
    });

    app.post('/user/forgot-password', {
      config: strict,
      schema: { tags, summary: 'Email a reset link', body: forgotPasswordBodySchema, response: { 200: emptyEnvelope } },
    }, async (request) => {
      await auth.requestPasswordReset(ctx, request.body.email, { ip: request.ip });
      return {
        success: true as const,
        message: 'If an account with that email exists, a password reset link has been sent to your email.',
        data: null,
      };
    });

    app.get('/user/verify-reset-token/:token', {
      schema: { tags, summary: 'Check a reset link', params: z.object({ token: safeText('Reset token', { trim: false }).min(1).max(200) }), response: { 200: emptyEnvelope } },
    }, async (request) => {
      await auth.checkResetToken(ctx, request.params.token);
      return { success: true as const, message: 'Reset link is valid', data: null };
    });

    app.post('/user/reset-password', {
      config: strict,
      schema: { tags, summary: 'Set a new password with a reset link', body: resetPasswordBodySchema, response: { 200: emptyEnvelope } },
    }, async (request) => {
      await auth.resetPassword(ctx, request.body.token, request.body.newPassword, { ip: request.ip });
      return {
        success: true as const,
        message: 'Your password has been reset. All other reset links were invalidated and you were signed out everywhere.',
        data: null,
      };
    });

    // Offered when password sign-in waits or is paused (decision 030): no password throttle applies.
    app.post('/user/request-sign-in-link', {
      config: strict,
      schema: {
        tags,
        summary: 'Email a one-time sign-in link to the account of a username or email (same answer for any name)',
        body: signInLinkRequestBodySchema,
        response: { 200: emptyEnvelope },
      },
    }, async (request) => {
      await auth.requestSignInLink(ctx, request.body.username, { ip: request.ip });
      return {
        success: true as const,
        message: `If an account matches, a sign-in link is on its way to its email address. It works once, within ${SIGN_IN_LINK_TTL_MS / 60_000} minutes.`,
        data: null,
      };
    });

    app.post('/user/sign-in-with-link', {
      config: strict,
      schema: {
        tags,
        summary: 'Sign in with an emailed link (single use, 15 minutes); clears the account\'s sign-in throttles',
        body: signInWithLinkBodySchema,
        response: { 200: envelope(loginResponseSchema) },
      },
    }, async (request) => {
      const { user, token } = await auth.signInWithLink(ctx, request.body.token, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      return { success: true as const, message: 'Login successful', data: { user: toUser(user), token } };
    });

    // ---- Signed-in: own account (or any, for admins) ----
    await app.register(routesFor('signed-in', async (signedIn) => {
      signedIn.post('/user/logout', {
        schema: { tags, summary: 'Sign out (revokes this session)', response: { 200: emptyEnvelope } },
      }, async (request) => {
        await auth.logout(ctx, request.sessionId!);
        return { success: true as const, message: 'Signed out', data: null };
      });

      signedIn.post('/user/change-password', {
        config: strict,
        schema: {
          tags,
          summary: 'Change your own password (current password, reset rules); other sessions and reset links end',
          body: changePasswordBodySchema,
          response: { 200: emptyEnvelope },
        },
      }, async (request) => {
        await auth.changePassword(ctx, currentUser(request), request.sessionId!, request.body);
        return {
          success: true as const,
          message: 'Password changed. You were signed out on every other device.',
          data: null,
        };
      });

      signedIn.get('/user/me', {
        schema: { tags, summary: 'The signed-in user', response: { 200: envelope(userSchema) } },
      }, async (request) => ({ success: true as const, data: toUser(currentUser(request)) }));

      signedIn.get('/user/get/:id', {
        schema: { tags, summary: 'A user with documents (self or admin)', params: idParams, response: { 200: envelope(userWithDocumentsSchema) } },
      }, async (request) => {
        const user = await users.findVisibleUser(ctx, currentUser(request), request.params.id);
        return { success: true as const, data: toUserWithDocuments(user, await users.documentsOf(ctx, user)) };
      });

      signedIn.put('/user/update/:id', {
        schema: { tags, summary: 'Update profile fields (admins may also set the role)', params: idParams, body: updateUserBodySchema, response: { 200: envelope(userSchema) } },
      }, async (request) => {
        const viewer = currentUser(request);
        const target = await users.findVisibleUser(ctx, viewer, request.params.id);
        const updated = await users.updateProfile(ctx, viewer, target, request.body);
        return { success: true as const, message: 'Profile updated successfully!', data: toUser(updated) };
      });

      signedIn.get('/user/:id/verification-status', {
        schema: { tags, summary: 'Verification status, documents and what is missing', params: idParams, response: { 200: envelope(verificationStatusSchema) } },
      }, async (request) => {
        const user = await users.findVisibleUser(ctx, currentUser(request), request.params.id);
        return { success: true as const, data: await users.verificationStatus(ctx, user) };
      });

      signedIn.post('/user/:id/upload-document', {
        schema: {
          tags,
          summary: 'Upload a verification document (multipart: document, type)',
          consumes: ['multipart/form-data'],
          params: idParams,
          response: { 200: envelope(z.object({ documents: documentsSchema, verification_status: userSchema.shape.verification_status })) },
        },
      }, async (request) => {
        const viewer = currentUser(request);
        const target = await users.findVisibleUser(ctx, viewer, request.params.id);
        if (target.id !== viewer.id) throw forbidden('Documents can only be uploaded by their owner.');
        const { file, fields: documentType } = await readSingleUpload(request, 'document', (fields) => users.parseDocumentType(fields.type));
        const updated = await users.uploadDocument(ctx, target, documentType, file);
        const status = await users.verificationStatus(ctx, updated);
        return {
          success: true as const,
          message: 'Document uploaded',
          data: { documents: status.documents, verification_status: updated.verification_status },
        };
      });

      signedIn.get('/user/:id/documents/:type', {
        schema: {
          tags,
          summary: 'Download a verification document (self or admin)',
          params: z.object({ id: safeText('Id').min(1).max(100), type: z.enum(DOCUMENT_TYPES) }),
          querystring: privateFileQuerySchema,
        },
        config: fileAnswer('The document', ['application/pdf', 'image/jpeg', 'image/png']),
      }, async (request, reply) => {
        const user = await users.findVisibleUser(ctx, currentUser(request), request.params.id);
        const { doc, data } = await users.readDocument(ctx, currentUser(request), user, request.params.type);
        return sendPrivateFile(reply, { data, mime: doc.mime_type }, {
          filename: `${user.username}_${doc.type}.${documentExtension(doc.mime_type)}`,
          inline: request.query.inline,
        });
      });
    }));

    // ---- Admins ----
    await app.register(routesFor('admin', async (admins) => {
      admins.put('/user/:id/verification', {
        schema: { tags, summary: 'Verify or reject a pending user (admin)', params: idParams, body: verificationBodySchema, response: { 200: envelope(userSchema) } },
      }, async (request) => {
        const target = await users.findVisibleUser(ctx, currentUser(request), request.params.id);
        const updated = await users.setVerification(ctx, currentUser(request), target, request.body);
        return {
          success: true as const,
          message: updated.verification_status === 'verified' ? 'User verified' : 'User rejected',
          data: toUser(updated),
        };
      });

      admins.get('/user/getList', {
        schema: {
          tags,
          summary: 'One page of users with documents (admin): search, status, role, page, limit; meta has the filtered total and the counters',
          querystring: adminUserListQuerySchema,
          response: { 200: envelope(z.array(userWithDocumentsSchema)).extend({ meta: adminUserListMetaSchema }) },
        },
      }, async (request) => {
        const { page, limit } = request.query;
        const { users: rows, documents, total, counts } = await users.listUsersWithDocuments(ctx, request.query);
        return {
          success: true as const,
          data: rows.map((row) => toUserWithDocuments(row, documents)),
          meta: { total, page, limit, counts },
        };
      });

      admins.post('/user/create', {
        schema: { tags, summary: 'Create a user (admin); starts as pending_upload', body: createUserBodySchema, response: { 201: envelope(userSchema) } },
      }, async (request, reply) => {
        const user = await users.createUserByAdmin(ctx, currentUser(request), request.body);
        return reply.status(201).send({ success: true, message: 'User created', data: toUser(user) });
      });
    }));
  };
}
