// The `test` every spec uses (each browser context starts its clock at E2E_NOW, as the server
// does), and helpers for journeys: sign in through the UI, and a few API calls for steps whose
// screens belong to later releases (an admin verifying a user, reading the mail outbox).
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_NOW } from './clock';

export { expect };

/**
 * Playwright's test with the browser's clock installed at E2E_NOW. After install the page's time
 * runs on at real speed (timers, TanStack Query, toasts behave as usual); only the start is fixed.
 */
export const test = base.extend({
  context: async ({ context }, use) => {
    await context.clock.install({ time: E2E_NOW });
    await use(context);
  },
});

export const DEMO_PASSWORD = 'Demo@1234';

export async function loginThroughUi(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).not.toHaveURL(/\/login$/);
}

export async function apiToken(request: APIRequestContext, username: string, password = DEMO_PASSWORD): Promise<string> {
  const response = await request.post('/api/user/login', { data: { username, password } });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { data: { token: string } };
  return body.data.token;
}

export async function adminVerifyUser(request: APIRequestContext, username: string) {
  const token = await apiToken(request, 'admin');
  const response = await request.put(`/api/user/${username}/verification`, {
    headers: { authorization: `Bearer ${token}` },
    data: { verification_status: 'verified' },
  });
  expect(response.status()).toBe(200);
}

/** The newest mail to an address, read from the outbox (no SMTP in the end-to-end run). */
export async function latestMailTo(request: APIRequestContext, email: string): Promise<{ subject: string; text: string }> {
  const token = await apiToken(request, 'admin');
  const response = await request.get(`/api/admin/outbox?to=${encodeURIComponent(email)}&limit=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { data: { subject: string; text: string }[] };
  expect(body.data.length).toBeGreaterThan(0);
  return body.data[0]!;
}

export function uniqueName(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
}

/** A small valid PDF, generated in memory. */
export function samplePdf(title: string): Buffer {
  const text = `BT /F1 14 Tf 60 740 Td (${title}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/**
 * Runs axe-core (WCAG 2.0, 2.1 and 2.2, levels A and AA) on the page as it is now and fails on any
 * violation, naming the rule, its impact and the first elements concerned. Called at each page of
 * the journeys, so a new accessibility problem fails `npm test`.
 */
export async function expectNoAxeViolations(page: Page, name: string) {
  // Let the page settle: no pending requests, no running transitions (colours mid-fade).
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))).then(() => undefined)).catch(() => undefined);
  const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
  const results = await new AxeBuilder({ page }).withTags(tags).disableRules(['target-size']).analyze();
  // Target size (2.5.8) without the map's price markers: cars in one city overlap on a map, and
  // each car has its own full-size "Show on the map" and "Book" buttons (the rule's "equivalent"
  // exception). The markers still go through every other rule above.
  const targets = await new AxeBuilder({ page }).withRules(['target-size']).exclude('.leaflet-marker-icon').analyze();
  const report = [...results.violations, ...targets.violations].map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.slice(0, 5).map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1, 2).join(' ').trim()}`).join('\n')}`,
  );
  expect(report, `axe violations on ${name}`).toEqual([]);
}
