// HTTP for /api/review (reading): reviews of a car or by a user, and their rating spread.
import { envelope, reviewListQuerySchema, reviewSchema, reviewStatsSchema } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import * as reviews from './reviews.service';

const tags = ['Reviews'];

export function reviewsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/review/getAll', {
      schema: {
        tags,
        summary: 'Reviews of a car (car_username or id) or by a user (user_username), newest first',
        querystring: reviewListQuerySchema,
        response: { 200: envelope(z.array(reviewSchema)) },
      },
    }, async (request) => ({ success: true as const, data: await reviews.listReviews(ctx, request.query) }));

    app.get('/review/getStats', {
      schema: {
        tags,
        summary: 'Average, count and spread of ratings, for one car or the whole platform',
        querystring: z.object({ car_username: z.string().trim().max(120).optional() }),
        response: { 200: envelope(reviewStatsSchema) },
      },
    }, async (request) => ({ success: true as const, data: await reviews.reviewStats(ctx, request.query.car_username) }));
  };
}
