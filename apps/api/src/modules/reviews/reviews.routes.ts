// HTTP for /api/review: reviews of a car or by a user, their rating spread, one review, and
// writing them (the renter of a completed booking; the author or an admin edits and deletes).
import {
  bookingReviewsSchema,
  createRenterReviewBodySchema,
  createReviewBodySchema,
  emptyEnvelope,
  envelope,
  pagedEnvelope,
  renterRecordSchema,
  reviewListQuerySchema,
  reviewPageQuerySchema,
  reviewSchema,
  reviewStatsSchema,
  safeText,
  updateReviewBodySchema,
} from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser, routesFor } from '../../plugins/auth';
import * as reviews from './reviews.service';

const tags = ['Reviews'];
const idParams = z.object({ id: safeText('Id').min(1).max(100) });

export function reviewsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // ---- Public ----
    app.get('/review/getAll', {
      schema: {
        tags,
        summary: 'Reviews of a car (car_username or id) or by a user (user_username), newest first',
        querystring: reviewListQuerySchema,
        response: { 200: envelope(z.array(reviewSchema)) },
      },
    }, async (request) => ({ success: true as const, data: await reviews.listReviews(ctx, request.user ?? null, request.query) }));

    app.get('/review/getStats', {
      schema: {
        tags,
        summary: 'Average, count and spread of ratings, for one car or the whole platform',
        querystring: z.object({ car_username: safeText('car_username').max(120).optional() }),
        response: { 200: envelope(reviewStatsSchema) },
      },
    }, async (request) => ({ success: true as const, data: await reviews.reviewStats(ctx, request.query.car_username) }));

    app.get('/review/getList', {
      schema: { tags, summary: 'All reviews, newest first, paged', querystring: reviewPageQuerySchema, response: { 200: pagedEnvelope(reviewSchema) } },
    }, async (request) => {
      const { page, limit } = request.query;
      const { reviews: data, total } = await reviews.listReviewsPage(ctx, page, limit);
      return { success: true as const, data, meta: { total, page, limit } };
    });

    app.get('/review/renter/:username', {
      schema: {
        tags,
        summary: "A renter's record: rating from hosts' shown reviews, completed trips, and those reviews",
        params: z.object({ username: safeText('username').min(1).max(100) }),
        response: { 200: envelope(renterRecordSchema) },
      },
    }, async (request) => ({ success: true as const, data: await reviews.renterRecord(ctx, request.params.username) }));

    app.get('/review/:id', {
      schema: { tags, summary: 'One review (a review not yet shown: its author and admins only)', params: idParams, response: { 200: envelope(reviewSchema) } },
    }, async (request) => ({ success: true as const, data: await reviews.getReview(ctx, request.user ?? null, request.params.id) }));

    // ---- Signed-in: the renter writes, the author or an admin edits and deletes ----
    await app.register(routesFor('signed-in', async (signedIn) => {
      signedIn.post('/review/create', {
        schema: { tags, summary: 'Review a completed booking of a car (its renter, once per booking)', body: createReviewBodySchema, response: { 201: envelope(reviewSchema) } },
      }, async (request, reply) => {
        const review = await reviews.createReview(ctx, currentUser(request), request.body);
        return reply.status(201).send({ success: true, message: 'Review Submitted', data: review });
      });

      signedIn.post('/review/renter', {
        schema: { tags, summary: 'The host reviews the renter of a completed booking (once, within 14 days)', body: createRenterReviewBodySchema, response: { 201: envelope(reviewSchema) } },
      }, async (request, reply) => {
        const review = await reviews.createRenterReview(ctx, currentUser(request), request.body);
        return reply.status(201).send({ success: true, message: 'Review Submitted', data: review });
      });

      signedIn.get('/review/booking/:id', {
        schema: { tags, summary: "A party's view of a booking's two reviews", params: idParams, response: { 200: envelope(bookingReviewsSchema) } },
      }, async (request) => ({ success: true as const, data: await reviews.bookingReviews(ctx, currentUser(request), request.params.id) }));

      signedIn.put('/review/:id', {
        schema: { tags, summary: 'Edit a review (author or admin)', params: idParams, body: updateReviewBodySchema, response: { 200: envelope(reviewSchema) } },
      }, async (request) => ({
        success: true as const,
        message: 'Review updated',
        data: await reviews.updateReview(ctx, currentUser(request), request.params.id, request.body),
      }));

      signedIn.delete('/review/:id', {
        schema: { tags, summary: 'Delete a review (author or admin)', params: idParams, response: { 200: emptyEnvelope } },
      }, async (request) => {
        await reviews.deleteReview(ctx, currentUser(request), request.params.id);
        return { success: true as const, message: 'Review deleted', data: null };
      });
    }));
  };
}
