// HTTP for /api/user: schema in, service call, schema out.
import {
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
  updateUserBodySchema,
  userSchema,
  userWithDocumentsSchema,
  verificationBodySchema,
  verificationStatusSchema,
} from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { badRequest, forbidden } from '../../lib/app-error';
import { currentUser, requireAdmin, requireUser } from '../../plugins/auth';
import * as auth from './auth.service';
import * as repo from './users.repository';
import * as users from './users.service';
import { toUser, toUserWithDocuments } from './users.mapper';

const idParams = z.object({ id: safeText('Id').min(1).max(100) });
const tags = ['Users'];
const secured = [{ bearerAuth: [] }];

export function usersRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const strict = { rateLimit: { max: Math.max(10, Math.floor(ctx.env.RATE_LIMIT_PER_MINUTE / 10)), timeWindow: '1 minute' } };

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

    app.post('/user/logout', {
      preHandler: requireUser,
      schema: { tags, summary: 'Sign out (revokes this session)', security: secured, response: { 200: emptyEnvelope } },
    }, async (request) => {
      await auth.logout(ctx, request.sessionId!);
      return { success: true as const, message: 'Signed out', data: null };
    });

    app.get('/user/me', {
      preHandler: requireUser,
      schema: { tags, summary: 'The signed-in user', security: secured, response: { 200: envelope(userSchema) } },
    }, async (request) => ({ success: true as const, data: toUser(currentUser(request)) }));

    app.post('/user/forgot-password', {
      config: strict,
      schema: { tags, summary: 'Email a reset link', body: forgotPasswordBodySchema, response: { 200: emptyEnvelope } },
    }, async (request) => {
      await auth.requestPasswordReset(ctx, request.body.email);
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
      await auth.resetPassword(ctx, request.body.token, request.body.newPassword);
      return {
        success: true as const,
        message: 'Your password has been reset. All other reset links were invalidated and you were signed out everywhere.',
        data: null,
      };
    });

    // ---- Signed-in: own account (or any, for admins) ----
    app.get('/user/get/:id', {
      preHandler: requireUser,
      schema: { tags, summary: 'A user with documents (self or admin)', security: secured, params: idParams, response: { 200: envelope(userWithDocumentsSchema) } },
    }, async (request) => {
      const user = await users.findVisibleUser(ctx, currentUser(request), request.params.id);
      return { success: true as const, data: toUserWithDocuments(user, await users.documentsOf(ctx, user)) };
    });

    app.put('/user/update/:id', {
      preHandler: requireUser,
      schema: { tags, summary: 'Update profile fields (admins may also set the role)', security: secured, params: idParams, body: updateUserBodySchema, response: { 200: envelope(userSchema) } },
    }, async (request) => {
      const viewer = currentUser(request);
      const target = await users.findVisibleUser(ctx, viewer, request.params.id);
      const updated = await users.updateProfile(ctx, viewer, target, request.body);
      return { success: true as const, message: 'Profile updated successfully!', data: toUser(updated) };
    });

    app.get('/user/:id/verification-status', {
      preHandler: requireUser,
      schema: { tags, summary: 'Verification status, documents and what is missing', security: secured, params: idParams, response: { 200: envelope(verificationStatusSchema) } },
    }, async (request) => {
      const user = await users.findVisibleUser(ctx, currentUser(request), request.params.id);
      return { success: true as const, data: await users.verificationStatus(ctx, user) };
    });

    app.post('/user/:id/upload-document', {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Upload a verification document (multipart: document, type)',
        security: secured,
        consumes: ['multipart/form-data'],
        params: idParams,
        response: { 200: envelope(z.object({ documents: documentsSchema, verification_status: userSchema.shape.verification_status })) },
      },
    }, async (request) => {
      const viewer = currentUser(request);
      const target = await users.findVisibleUser(ctx, viewer, request.params.id);
      if (target.id !== viewer.id) throw forbidden('Documents can only be uploaded by their owner.');
      if (!request.isMultipart()) throw badRequest('Please choose a file to upload.', { document: 'Please choose a file to upload.' });

      let type: string | undefined;
      let file: { buffer: Buffer; filename: string } | undefined;
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== 'document' || file) {
            part.file.resume();
            continue;
          }
          file = { buffer: await part.toBuffer(), filename: part.filename };
        } else if (part.fieldname === 'type') {
          type = String(part.value);
        }
      }
      const documentType = users.parseDocumentType(type);
      if (!file || file.buffer.length === 0) throw badRequest('Please choose a file to upload.', { document: 'Please choose a file to upload.' });
      const updated = await users.uploadDocument(ctx, target, documentType, file);
      const status = await users.verificationStatus(ctx, updated);
      return {
        success: true as const,
        message: 'Document uploaded',
        data: { documents: status.documents, verification_status: updated.verification_status },
      };
    });

    app.get('/user/:id/documents/:type', {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Download a verification document (self or admin)',
        security: secured,
        params: z.object({ id: safeText('Id').min(1).max(100), type: z.enum(DOCUMENT_TYPES) }),
        querystring: z.object({ inline: z.enum(['0', '1', 'true', 'false']).optional() }),
      },
    }, async (request, reply) => {
      const user = await users.findVisibleUser(ctx, currentUser(request), request.params.id);
      const { doc, data } = await users.readDocument(ctx, user, request.params.type);
      const ext = doc.mime_type === 'application/pdf' ? 'pdf' : doc.mime_type === 'image/png' ? 'png' : 'jpg';
      const filename = `${user.username}_${doc.type}.${ext}`;
      const disposition = ['1', 'true'].includes(request.query.inline ?? '') ? 'inline' : 'attachment';
      return reply
        .header('content-type', doc.mime_type)
        .header('content-disposition', `${disposition}; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(data);
    });

    // ---- Admin ----
    app.put('/user/:id/verification', {
      preHandler: requireAdmin,
      schema: { tags, summary: 'Verify or reject a pending user (admin)', security: secured, params: idParams, body: verificationBodySchema, response: { 200: envelope(userSchema) } },
    }, async (request) => {
      const target = await users.findVisibleUser(ctx, currentUser(request), request.params.id);
      const updated = await users.setVerification(ctx, target, request.body);
      return {
        success: true as const,
        message: updated.verification_status === 'verified' ? 'User verified' : 'User rejected',
        data: toUser(updated),
      };
    });

    app.get('/user/getList', {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'All users (admin)',
        security: secured,
        querystring: z.object({
          search: safeText('Search').max(100).optional(),
          status: z.enum(['pending_upload', 'pending_verification', 'verified', 'rejected']).optional(),
          role: z.enum(['admin', 'host', 'customer']).optional(),
        }),
        response: { 200: envelope(z.array(userWithDocumentsSchema)) },
      },
    }, async (request) => {
      const rows = await repo.listUsers(ctx.db, request.query);
      const documents = await repo.listDocuments(ctx.db, rows.map((r) => r.id));
      return { success: true as const, data: rows.map((row) => toUserWithDocuments(row, documents)) };
    });

    app.post('/user/create', {
      preHandler: requireAdmin,
      schema: { tags, summary: 'Create a user (admin); starts as pending_upload', security: secured, body: createUserBodySchema, response: { 201: envelope(userSchema) } },
    }, async (request, reply) => {
      const user = await users.createUserByAdmin(ctx, request.body);
      return reply.status(201).send({ success: true, message: 'User created', data: toUser(user) });
    });

    app.delete('/user/delete/:id', {
      preHandler: requireAdmin,
      schema: { tags, summary: 'Delete a user (admin; not admins)', security: secured, params: idParams, response: { 200: emptyEnvelope } },
    }, async (request) => {
      const target = await users.findVisibleUser(ctx, currentUser(request), request.params.id);
      await users.deleteUserByAdmin(ctx, target);
      return { success: true as const, message: 'User deleted', data: null };
    });
  };
}
