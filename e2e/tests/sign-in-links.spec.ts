// Held out of password sign-in, in by email (decision 030): after a stranger's wrong passwords from
// the owner's own address, her right password waits; the sign-in page offers "Email me a sign-in
// link", the link from the outbox signs her in and lands her where a sign-in would, once.
import type { APIRequestContext } from '@playwright/test';
import { expect, expectNoAxeViolations, latestMailTo, test, uniqueName } from './fixtures';

const PASSWORD = 'Karoo2026!';

async function registerUser(request: APIRequestContext, prefix: string) {
  const username = uniqueName(prefix);
  const email = `${username}@example.co.za`;
  const registered = await request.post('/api/user/register', {
    data: { full_name: 'Priya Naidoo', email, username, password: PASSWORD, terms_accepted: true, privacy_accepted: true, role: 'user' },
  });
  expect(registered.status()).toBe(201);
  return { username, email };
}

for (const width of [1280, 390]) {
  test(`throttled sign-in: email me a sign-in link, open it, signed in (${width} px)`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
    const { username, email } = await registerUser(request, 'priya');
    // A stranger on the same address (loopback here) spends the free attempts on her account.
    for (let i = 0; i < 5; i++) {
      const guess = await request.post('/api/user/login', { data: { username, password: `guess-${i}` } });
      expect(guess.status()).toBe(401);
    }

    await page.goto('/login');
    await page.getByLabel('Username or Email').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    // In the page (the toast says it too): the refusal, and the way in without the password.
    const offer = page.getByRole('button', { name: 'Email me a sign-in link' });
    const refusal = page.getByRole('alert').filter({ has: offer });
    await expect(refusal).toContainText(/Too many failed sign-in attempts\. Please try again in \d+ seconds\./);
    await expect(offer).toBeVisible();
    await page.screenshot({ path: `/tmp/karoo/h2-sign-in-link-${width}-offered.png`, fullPage: true });
    await expectNoAxeViolations(page, `sign-in refused, link offered (${width} px)`);

    await offer.click();
    await expect(page.getByRole('status').filter({ hasText: 'Check your email' })).toBeVisible();
    await expect(page.getByText(/a sign-in link is on its way/)).toBeVisible();
    await page.screenshot({ path: `/tmp/karoo/h2-sign-in-link-${width}-sent.png`, fullPage: true });
    await expectNoAxeViolations(page, `sign-in link sent (${width} px)`);

    const mail = await latestMailTo(request, email);
    expect(mail.subject).toBe('Your Karoo sign-in link');
    const link = new URL(mail.text.match(/https?:\/\/\S+\/sign-in-link\?token=\S+/)![0]);
    await page.goto(link.pathname + link.search);
    // A new customer lands on the cars, signed in (greeted as a sign-in greets an unverified account).
    await expect(page).toHaveURL(/\/cars$/);
    await expect(page.getByText('Account Pending Verification')).toBeVisible();
    await expect(page.getByText("Verification in process - we're awaiting your documents and information")).toBeVisible();
    await page.screenshot({ path: `/tmp/karoo/h2-sign-in-link-${width}-landed.png` });

    // The link worked once.
    await page.goto(link.pathname + link.search);
    await expect(page.getByRole('heading', { name: "This link can't sign you in" })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'This sign-in link is invalid, already used or expired. Please ask for a new one.' })).toBeVisible();
    await page.screenshot({ path: `/tmp/karoo/h2-sign-in-link-${width}-used.png`, fullPage: true });
    await expectNoAxeViolations(page, `sign-in link used (${width} px)`);

    // Signing in by link cleared her throttle at this address: the password works again.
    const again = await request.post('/api/user/login', { data: { username, password: PASSWORD } });
    expect(again.status()).toBe(200);
  });
}
