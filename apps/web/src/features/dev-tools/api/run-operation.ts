// One playground call through the shared api client (so the admin's token is sent), turned into
// what the result panel shows: success or failure, the server's message and the JSON answer.
import { isApiError, type ApiResult } from '@/lib/api-client';

export interface OperationResult {
  /** The operation's name, e.g. "Create User". */
  label: string;
  isSuccess: boolean;
  /** The server's message (or the client's own for a network failure); null when it sent none. */
  message: string | null;
  /** The answer as the server sent it, for the JSON view. */
  body: unknown;
  /** The server's per-field messages of a refused request (400), shown under the form's fields. */
  errors: Record<string, string>;
}

export async function runOperation(label: string, call: () => Promise<ApiResult<unknown>>): Promise<OperationResult> {
  try {
    const result = await call();
    return {
      label,
      isSuccess: true,
      message: result.message ?? null,
      body: { success: true, ...(result.message ? { message: result.message } : {}), data: result.data, ...(result.meta ? { meta: result.meta } : {}) },
      errors: {},
    };
  } catch (error) {
    if (!isApiError(error)) throw error;
    const hasErrors = Object.keys(error.errors).length > 0;
    return {
      label,
      isSuccess: false,
      message: error.message,
      body: { success: false, status: error.status || null, message: error.message, ...(hasErrors ? { errors: error.errors } : {}) },
      errors: error.errors,
    };
  }
}

/** A path segment typed by the user (a username may hold characters a URL needs escaped). */
export const segment = (value: string) => encodeURIComponent(value.trim());
