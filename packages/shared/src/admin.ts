// The admin panel's Dashboard (document 3, Admin panel): the five counters, Recent Activity (the
// newest users) and the debug box an operator reads. The counters are the server's aggregates.
import { z } from './zod';
import { ROLES } from './roles';
import { VERIFICATION_STATUSES } from './users';

/** Document 3: Recent Activity lists the 5 newest users. */
export const ADMIN_RECENT_USERS = 5;
/** Document 3: the admin panel refreshes its data every 30 seconds. */
export const ADMIN_REFRESH_MS = 30_000;

export const adminCountersSchema = z.object({
  total_users: z.number().int().nonnegative(),
  total_cars: z.number().int().nonnegative(),
  total_bookings: z.number().int().nonnegative(),
  pending_user_verification: z.number().int().nonnegative(),
  pending_car_verification: z.number().int().nonnegative(),
});
export type AdminCounters = z.infer<typeof adminCountersSchema>;

export const adminRecentUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  full_name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  verification_status: z.enum(VERIFICATION_STATUSES),
  created_at: z.string(),
});
export type AdminRecentUser = z.infer<typeof adminRecentUserSchema>;

/** What an operator needs to know about the running server; never a secret. */
export const adminDebugInfoSchema = z.object({
  api_version: z.string(),
  commit: z.string(),
  node_version: z.string(),
  database: z.enum(['embedded PGlite', 'PostgreSQL']),
  mail: z.enum(['SMTP', 'outbox']),
  payments: z.enum(['paystack', 'sandbox']),
  uptime_seconds: z.number().int().nonnegative(),
  server_time: z.string(),
});
export type AdminDebugInfo = z.infer<typeof adminDebugInfoSchema>;

export const adminOverviewSchema = z.object({
  counters: adminCountersSchema,
  recent_users: z.array(adminRecentUserSchema),
  debug: adminDebugInfoSchema,
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;
