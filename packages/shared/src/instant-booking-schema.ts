// The schemas of a car's instant booking (issue 36, decision 078): as the API answers it, and the
// host's update, which is also the panel's form resolver (the same refusals in the same words).
import { z } from './zod';
import { INSTANT_LIMITS } from './instant-booking';

export const instantBookingSchema = z.object({
  enabled: z.boolean(),
  min_trips: z.number().int(),
  min_rating: z.number().nullable(),
  min_licence_years: z.number().int().nullable(),
});

const emptyIsNull = (v: unknown) => (v === '' || v === undefined ? null : v);

/** PATCH /car/updateInstantBooking/{id}: the whole set, as the host's panel sends it. */
export const updateInstantBookingBodySchema = z.object({
  enabled: z.preprocess((v) => v === true || v === 'true', z.boolean()),
  min_trips: z.coerce
    .number({ error: 'Completed trips must be a number' })
    .int('Completed trips must be a whole number')
    .min(0, 'Completed trips must be at least 0')
    .max(INSTANT_LIMITS.maxMinTrips, `Completed trips must be at most ${INSTANT_LIMITS.maxMinTrips}`),
  min_rating: z.preprocess(
    emptyIsNull,
    z.coerce
      .number({ error: 'Rating must be a number' })
      .min(INSTANT_LIMITS.minRating, `Rating must be at least ${INSTANT_LIMITS.minRating}`)
      .max(INSTANT_LIMITS.maxRating, `Rating must be at most ${INSTANT_LIMITS.maxRating}`)
      .refine((v) => Number.isInteger(Math.round(v * 1000) / 100), 'Rating takes one decimal (4.5)')
      .nullable(),
  ),
  min_licence_years: z.preprocess(
    emptyIsNull,
    z.coerce
      .number({ error: 'Licence years must be a number' })
      .int('Licence years must be a whole number')
      .min(1, 'Licence years must be at least 1')
      .max(INSTANT_LIMITS.maxLicenceYears, `Licence years must be at most ${INSTANT_LIMITS.maxLicenceYears}`)
      .nullable(),
  ),
});
export type UpdateInstantBookingBody = z.input<typeof updateInstantBookingBodySchema>;
export type InstantBookingInput = z.output<typeof updateInstantBookingBodySchema>;

/** GET /car/{id}/instant-booking/me: whether the signed-in renter's request would be confirmed at once, and what they lack. */
export const instantEligibilitySchema = z.object({
  instant: z.boolean(),
  unmet: z.array(z.object({ requirement: z.enum(['platform', 'car', 'verified', 'trips', 'rating', 'licence']), message: z.string() })),
});
export type InstantEligibility = z.infer<typeof instantEligibilitySchema>;
