// Document 1 journeys in the real app: sign-up to verified, password reset, guards.
import { adminVerifyUser, DEMO_PASSWORD, expect, expectNoAxeViolations, latestMailTo, loginThroughUi, samplePdf, test, uniqueName } from './fixtures';

test('a new user registers, signs in, completes the profile, uploads documents and is verified', async ({ page, request }) => {
  const username = uniqueName('ama');
  const email = `${username}@example.co.za`;
  const password = 'Karoo2026!';

  await page.goto('/register');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Full name is required')).toBeVisible();
  await expectNoAxeViolations(page, 'register, errors shown');

  await page.getByLabel('Full Name').fill('Ama Dube');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();

  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('You must accept the terms and conditions')).toBeVisible();
  await expectNoAxeViolations(page, 'register, terms step');
  await page.getByRole('checkbox', { name: /terms/i }).check();
  await page.getByRole('checkbox', { name: /privacy/i }).check();
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText(/pending verification/i).first()).toBeVisible();
  await expectNoAxeViolations(page, 'login after registering');

  await loginThroughUi(page, email, password);
  await expect(page.getByText('Account Pending Verification')).toBeVisible();
  await expect(page.getByText("Verification in process - we're awaiting your documents and information")).toBeVisible();
  await expectNoAxeViolations(page, 'landing with the verification banner');

  await page.goto('/profile');
  await expect(page.getByText(`@${username}`)).toBeVisible();
  await expectNoAxeViolations(page, 'profile');
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  await page.getByLabel('Phone Number').fill('+27 82 123 4567');
  await page.getByLabel('Address').fill('7 Long Street, Cape Town, 8001');
  await page.getByLabel('ID Number').fill('9202205800087');
  await page.getByLabel('Account Number').fill('62011122233');
  await page.getByLabel('Bank Code').fill('250655');
  await expectNoAxeViolations(page, 'profile edit form');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile updated successfully!')).toBeVisible();

  for (const [slot, file] of [
    ['ID Document', 'id.pdf'],
    ["Driver's License", 'licence.pdf'],
    ['Bank Confirmation Letter', 'bank.pdf'],
  ] as const) {
    await page.getByTestId(`upload-${slot}`).setInputFiles({ name: file, mimeType: 'application/pdf', buffer: samplePdf(slot) });
    await expect(page.getByTestId(`slot-${slot}`).getByText('Uploaded', { exact: true })).toBeVisible();
  }
  await expectNoAxeViolations(page, 'profile with documents uploaded');

  await adminVerifyUser(request, username);
  await page.goto('/');
  await page.reload();
  await expect(page.getByText("Verification in process - we're awaiting your documents and information")).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'My Bookings' }).first()).toBeVisible();

  await page.getByRole('button', { name: /notifications/i }).click();
  await expect(page.getByText('Account verified')).toBeVisible();
  await expectNoAxeViolations(page, 'notifications');
});

test('forgot password: the emailed link resets the password; the old one stops working', async ({ page, request }) => {
  const username = uniqueName('lindo');
  const email = `${username}@example.co.za`;
  const registered = await request.post('/api/user/register', {
    data: { full_name: 'Lindo Zulu', email, username, password: 'first-pass1', terms_accepted: true, privacy_accepted: true, role: 'user' },
  });
  expect(registered.status()).toBe(201);

  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Check Your Email')).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expectNoAxeViolations(page, 'forgot password, mail sent');

  const mail = await latestMailTo(request, email);
  const link = mail.text.match(/https?:\/\/\S+reset-password\?token=\S+/)?.[0];
  expect(link).toBeTruthy();
  await page.goto(new URL(link!).pathname + new URL(link!).search);

  await page.getByLabel('New Password', { exact: true }).fill('password');
  await page.getByLabel('Confirm Password').fill('password');
  await page.getByRole('button', { name: /reset password/i }).click();
  await expect(page.getByText('Password must contain at least one letter and one number').first()).toBeVisible();
  await expectNoAxeViolations(page, 'reset password, errors shown');

  await page.getByLabel('New Password', { exact: true }).fill('NewSecret42!');
  await expect(page.getByText('Strong')).toBeVisible();
  await page.getByLabel('Confirm Password').fill('NewSecret42!');
  await page.getByRole('button', { name: /reset password/i }).click();
  await expect(page.getByText(/all other reset links/i)).toBeVisible();
  await page.getByRole('button', { name: 'Continue to Login' }).click();
  await expect(page).toHaveURL(/\/login/);

  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill('first-pass1');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Invalid credentials').first()).toBeVisible();
  await expectNoAxeViolations(page, 'login, wrong password');
  await expect(page).toHaveURL(/\/login/);

  await page.getByLabel('Password', { exact: true }).fill('NewSecret42!');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).not.toHaveURL(/\/login/);

  // The link was single use.
  await page.goto(new URL(link!).pathname + new URL(link!).search);
  await expect(page).toHaveURL(/\/forgot-password/);
});

test('guards: a guest is sent to sign in and returns to the page; a customer cannot open host pages', async ({ page }) => {
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel('Username or Email').fill('sipho');
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText('@sipho')).toBeVisible();
  await expect(page.getByText('Cars Listed')).toBeVisible();
  await expectNoAxeViolations(page, 'profile (renter)');

  await page.goto('/host-dashboard');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/no-such-page');
  await expect(page.getByText('Page not found')).toBeVisible();
  await expectNoAxeViolations(page, 'not found page');
});

test('an admin sees only the Admin Panel link and lands on /admin', async ({ page }) => {
  await loginThroughUi(page, 'admin');
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('link', { name: 'Admin Panel' }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Browse Vehicles' })).toHaveCount(0);
});

test('verified user: no banner, welcome toast, sign out clears the session', async ({ page }) => {
  await loginThroughUi(page, 'sipho');
  await expect(page.getByText('Welcome Back!')).toBeVisible();
  await expect(page).toHaveURL(/\/cars$/);
  await expect(page.getByText(/Verification in process|Complete your profile verification/)).toHaveCount(0);
  await page.getByRole('button', { name: /user menu|sipho|Sipho/i }).first().click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).or(page.getByRole('button', { name: 'Sign Out' })).first().click();
  await expect(page.getByRole('link', { name: 'Sign In' }).or(page.getByRole('button', { name: 'Sign In' })).first()).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('authToken'));
  expect(token).toBeNull();
});
