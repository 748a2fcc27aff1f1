// The audit log as the admin panel reads it (issue 10): who did what to which object, when, and the
// values before and after.
import { safeText } from './text';
import { z } from './zod';

export const AUDIT_TARGET_TYPES = ['user', 'car', 'booking', 'settings', 'payout', 'refund', 'breach'] as const;

export const auditEntrySchema = z.object({
  id: z.string(),
  admin: z.object({ id: z.string(), username: z.string() }),
  action: z.string(),
  target_type: z.enum(AUDIT_TARGET_TYPES),
  target_id: z.string().nullable(),
  target_label: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  reason: z.string().nullable(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditListQuerySchema = z.object({
  action: safeText('action').max(60).optional(),
  admin: safeText('admin').max(100).optional(),
  target_type: z.enum(AUDIT_TARGET_TYPES, { error: `target_type must be one of ${AUDIT_TARGET_TYPES.join(', ')}` }).optional(),
  target: safeText('target').max(120).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;
