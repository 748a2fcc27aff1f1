// The admin panel's Dashboard (document 3, Admin panel): the five counters, Recent Activity (the
// newest users) and the debug box an operator reads. The counters are the server's aggregates.
// Also the admin lists' queries: Users (GET /api/user/getList) and Cars (GET /api/admin/cars).
import { z } from './zod';
import { CAR_VERIFICATION_STATUSES, type CarStatus } from './cars';
import { ROLES } from './roles';
import { safeText } from './text';
import { emailField, profileFormSchema, VERIFICATION_STATUSES } from './users';

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
  // The Cars tab's counters (document 3, Cars), counted in the same answer: available and not out
  // on a rental, out on a rental right now (whatever the stored status), in maintenance.
  available_cars: z.number().int().nonnegative(),
  rented_cars: z.number().int().nonnegative(),
  maintenance_cars: z.number().int().nonnegative(),
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

// ---- The Users tab (document 3): GET /api/user/getList, searched, filtered and paged on the server ----
/** Rows per page of the admin Users tab. */
export const ADMIN_USERS_PAGE_SIZE = 25;

export const adminUserListQuerySchema = z.object({
  search: safeText('Search').max(100).optional(),
  status: z.enum(VERIFICATION_STATUSES).optional(),
  role: z.enum(ROLES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(ADMIN_USERS_PAGE_SIZE),
});
export type AdminUserListQuery = z.infer<typeof adminUserListQuerySchema>;

/** The Users tab's counter cards: one aggregate over every user not deleted, whatever the filters. */
export const adminUserCountsSchema = z.object({
  total: z.number().int().nonnegative(),
  pending_verification: z.number().int().nonnegative(),
  verified: z.number().int().nonnegative(),
  rejected: z.number().int().nonnegative(),
  pending_upload: z.number().int().nonnegative(),
  admins: z.number().int().nonnegative(),
  hosts: z.number().int().nonnegative(),
  customers: z.number().int().nonnegative(),
});
export type AdminUserCounts = z.infer<typeof adminUserCountsSchema>;

/** `total` counts the rows matching the filters; `counts` the whole table. */
export const adminUserListMetaSchema = z.object({
  total: z.number().int().nonnegative(),
  page: z.number().int(),
  limit: z.number().int(),
  counts: adminUserCountsSchema,
});
export type AdminUserListMeta = z.infer<typeof adminUserListMetaSchema>;

// ---- The Cars tab (document 3, Cars): GET /api/admin/cars, searched, filtered, sorted and paged on the server ----
/** Rows per page of the admin Cars tab. */
export const ADMIN_CARS_PAGE_SIZE = 20;

/**
 * The statuses an admin filters by: 'rented' is a car out on a rental right now (a paid booking
 * whose first day has come), 'available' one that is available and not out; the others as stored.
 */
export const ADMIN_CAR_STATUS_FILTERS = ['available', 'rented', 'maintenance', 'offline'] as const satisfies readonly CarStatus[];
/** Newest listed first unless asked otherwise; by car (make, model, then the newest year) or by daily price. */
export const ADMIN_CAR_SORTS = ['listed', 'car', 'price'] as const;
export type AdminCarSort = (typeof ADMIN_CAR_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const adminCarListQuerySchema = z.object({
  /** Words of the make, model, type or city, or (part of) a plate however it is spaced or cased. */
  search: safeText('Search').max(100).optional(),
  status: z.enum(ADMIN_CAR_STATUS_FILTERS, { error: `status must be one of ${ADMIN_CAR_STATUS_FILTERS.join(', ')}` }).optional(),
  verification_status: z.enum(CAR_VERIFICATION_STATUSES, { error: `verification_status must be one of ${CAR_VERIFICATION_STATUSES.join(', ')}` }).optional(),
  sort: z.enum(ADMIN_CAR_SORTS, { error: `sort must be one of ${ADMIN_CAR_SORTS.join(', ')}` }).default('listed'),
  /** Without it: newest first for 'listed', A to Z and cheapest first for the others. */
  order: z.enum(SORT_ORDERS, { error: 'order must be asc or desc' }).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(ADMIN_CARS_PAGE_SIZE),
});
export type AdminCarListQuery = z.infer<typeof adminCarListQuerySchema>;

/** The admin's Edit User form: profile fields and role (sent to PUT /api/user/update/{username}). */
export const adminEditUserFormSchema = z.object({
  full_name: profileFormSchema.shape.full_name,
  email: emailField,
  phone_number: safeText('Phone number').max(20),
  address: safeText('Address').max(300),
  role: z.enum(ROLES),
});
export type AdminEditUserForm = z.infer<typeof adminEditUserFormSchema>;

// ---- Mail delivery (issue 12): GET /api/admin/mail, POST /api/admin/mail/{id}/retry ----
/** pending: waiting for the worker; sent: the SMTP server took it; kept: held in the outbox (no SMTP); failed: given up. */
export const MAIL_STATUSES = ['pending', 'sent', 'kept', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

export const adminMailListQuerySchema = z.object({
  status: z.enum(MAIL_STATUSES, { error: 'Status must be pending, sent, kept or failed' }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AdminMailListQuery = z.infer<typeof adminMailListQuerySchema>;

export const adminMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  status: z.enum(MAIL_STATUSES),
  attempts: z.number().int().nonnegative(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  sent_at: z.string().nullable(),
  created_at: z.string(),
  message_id: z.string().nullable(),
});
export type AdminMail = z.infer<typeof adminMailSchema>;
