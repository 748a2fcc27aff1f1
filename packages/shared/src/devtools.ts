// The developer tools' contract (decisions.md section 10): the API Connection Test page asks the
// server which accounts its two login tests may use. The answer names demo accounts only when the
// server runs with demo data, so no credentials are ever built into the web app.
import { z } from './zod';

export const loginTestAccountSchema = z.object({
  /** What the test page calls the test, e.g. "Host login". */
  label: z.string(),
  username: z.string(),
  password: z.string(),
});
export type LoginTestAccount = z.infer<typeof loginTestAccountSchema>;

export const loginTestsSchema = z.discriminatedUnion('available', [
  z.object({ available: z.literal(true), accounts: z.array(loginTestAccountSchema) }),
  z.object({ available: z.literal(false), reason: z.string() }),
]);
export type LoginTests = z.infer<typeof loginTestsSchema>;

/** The test page's text for a login test the server offers no account for. */
export const LOGIN_TEST_SKIPPED = 'Skipped: no demo data on this server';
