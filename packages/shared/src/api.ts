// The response envelope of api.md, as zod schemas (server documents them) and types (client reads them).
import { z } from './zod';

export const errorResponseSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), message: z.string().optional(), data });
}

export function pagedEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    success: z.literal(true),
    message: z.string().optional(),
    data: z.array(item),
    meta: z.object({ total: z.number().int(), page: z.number().int(), limit: z.number().int() }),
  });
}

export const emptyEnvelope = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.null(),
});

export interface SuccessResponse<T> {
  success: true;
  message?: string;
  data: T;
  meta?: { total: number; page: number; limit: number };
}
