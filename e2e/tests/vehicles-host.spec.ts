// Document 2 host journeys in the real app: a new user lists a first car through the wizard and
// becomes a host; a host manages a seeded car from the host dashboard and the changes persist.
import zlib from 'node:zlib';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { E2E_YEAR } from './clock';
import { apiToken, expect, expectNoAxeViolations, expectReadableInEveryState, loginThroughUi, samplePdf, test, uniqueName } from './fixtures';

/** A small valid PNG (a colour gradient), generated in memory: the server checks photos by content. */
function samplePng(width = 64, height = 40): Buffer {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = table[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++) rows.push(194, Math.round((y / height) * 255), Math.round((x / width) * 255));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

interface ApiCar {
  id: string;
  car_username: string;
  status: string;
  isRented: boolean;
  verification_status: string;
  car_rent_price: number;
  car_plate_number: string;
}

async function hostCars(request: APIRequestContext, username: string): Promise<ApiCar[]> {
  const token = await apiToken(request, username);
  const response = await request.get(`/api/car/getCarList?owner=${username}&limit=48`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: ApiCar[] }).data;
}

async function openManageDetails(page: Page, card: Locator): Promise<Locator> {
  await card.getByRole('button', { name: 'Manage Details' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('tab', { name: 'Pickup Locations' })).toBeVisible();
  return dialog;
}

test('a new user lists a car through the wizard, becomes a host and sees it pending verification', async ({ page, request }) => {
  const username = uniqueName('zola');
  const password = 'Karoo2026!';
  const registered = await request.post('/api/user/register', {
    data: { full_name: 'Zola Mahlangu', email: `${username}@example.co.za`, username, password, terms_accepted: true, privacy_accepted: true, role: 'user' },
  });
  expect(registered.status()).toBe(201);
  const plate = `ZM ${String(Date.now()).slice(-3)} GP`;

  await loginThroughUi(page, username, password);
  await page.goto('/become-host');
  await expect(page.getByRole('heading', { name: 'Vehicle Details' })).toBeVisible();

  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Required Fields Missing')).toBeVisible();
  await expectNoAxeViolations(page, 'list-car wizard, details with errors');

  await page.getByLabel('Make').selectOption('Volkswagen');
  await page.getByLabel('Model').selectOption('Polo Vivo');
  await page.getByLabel('Vehicle type').selectOption('Hatchback');
  await page.getByLabel('Colour').selectOption('Silver');
  await page.getByLabel('Plate number').fill(plate);
  await page.getByLabel('Vehicle value (R)').fill('0185000');
  await expect(page.getByLabel('Vehicle value (R)')).toHaveValue('185000');
  await page.getByLabel('Daily price (R)').fill('450');
  await page.getByLabel('Odometer (km)').fill('61000');
  await page.getByLabel('Transmission').selectOption('Manual');
  await page.getByLabel('Pickup location').selectOption('Cape Town');
  await page.getByLabel(/Add photos/).setInputFiles({ name: 'polo-front.png', mimeType: 'image/png', buffer: samplePng() });
  await expect(page.getByText('Main photo')).toBeVisible();
  await expectNoAxeViolations(page, 'list-car wizard, details filled');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByRole('heading', { name: 'Features & Submit' })).toBeVisible();
  await expectNoAxeViolations(page, 'list-car wizard, features');
  // A feature chip reads well however the user meets it: hovered, focused, checked, checked and hovered.
  const features = page.getByRole('group', { name: /^Features/ });
  await expectReadableInEveryState(page, features.getByRole('checkbox', { name: 'Bluetooth' }), features, 'list-car wizard, Bluetooth feature');
  await page.getByRole('checkbox', { name: 'Bluetooth' }).check();
  await page.getByRole('checkbox', { name: 'Airbags' }).check();
  await page.getByLabel('Add a rule').fill('No smoking');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Submit Listing' })).toBeDisabled();
  await page.getByLabel('Description').fill('A frugal, well-kept Polo Vivo, ideal for exploring Cape Town.');
  await page.getByRole('button', { name: 'Submit Listing' }).click();

  const confirm = page.getByRole('dialog', { name: 'Add Vehicle to Listing' });
  await expect(confirm).toBeVisible();
  await expectNoAxeViolations(page, 'list-car wizard, confirmation');
  await confirm.getByRole('button', { name: 'Add Vehicle' }).click();
  await expect(page.getByText('Vehicle Added Successfully', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Documents', exact: true })).toBeVisible();
  await expectNoAxeViolations(page, 'list-car wizard, documents');

  // The server made the user a host with the first car; the app knows it without a new sign-in.
  await expect(page.getByRole('link', { name: 'Host Dashboard' }).first()).toBeAttached();
  const registration = page.getByTestId('registration-document');
  await page.getByTestId('upload-registration-document').setInputFiles({ name: 'registration.pdf', mimeType: 'application/pdf', buffer: samplePdf('Registration') });
  await expect(registration.getByText('Pending Verification')).toBeVisible();
  await page.getByTestId('upload-ID Document').setInputFiles({ name: 'id.pdf', mimeType: 'application/pdf', buffer: samplePdf('ID') });
  await expect(page.getByTestId('slot-ID Document').getByText('Uploaded', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/host-dashboard$/);
  const card = page.locator('article', { hasText: plate });
  await expect(card).toBeVisible();
  await expect(card.getByRole('heading', { name: `${E2E_YEAR} Volkswagen Polo Vivo` })).toBeVisible();
  await expect(card.getByText('Pending verification')).toBeVisible();
  await expect(card.getByRole('img', { name: /Polo Vivo/ })).toBeVisible();
  await expectNoAxeViolations(page, 'host dashboard with a pending car');

  const me = await request.get('/api/user/me', { headers: { authorization: `Bearer ${await apiToken(request, username, password)}` } });
  expect(((await me.json()) as { data: { role: string } }).data.role).toBe('host');
});

test('the wizard refuses a text file named fake.jpg the moment it is chosen, naming it, and a picture Chromium cannot decode', async ({ page, request }) => {
  const username = uniqueName('sipho');
  const password = 'Karoo2026!';
  const registered = await request.post('/api/user/register', {
    data: { full_name: 'Sipho Dlamini', email: `${username}@example.co.za`, username, password, terms_accepted: true, privacy_accepted: true, role: 'user' },
  });
  expect(registered.status()).toBe(201);
  await loginThroughUi(page, username, password);
  await page.goto('/become-host');
  await expect(page.getByRole('heading', { name: 'Vehicle Details' })).toBeVisible();

  // A text file with a picture's name: refused from its content at once, before anything is sent.
  const photos = page.getByLabel(/Add photos/);
  await photos.setInputFiles({ name: 'fake.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('Just some notes, saved with the wrong name.\n') });
  const refusal = page.getByRole('alert').filter({ hasText: 'Photo not added' });
  await expect(refusal).toContainText('"fake.jpg" is not a JPEG, PNG or WebP image.');
  await expect(page.getByText('0 of 10')).toBeVisible();
  await expectNoAxeViolations(page, 'list-car wizard, a photo refused');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await refusal.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/tmp/karoo/h3-wizard-refusal-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  // A PNG whose header is right but whose pixels are garbage: only a decoder can tell, and Chromium's does.
  const good = samplePng();
  const damaged = Buffer.concat([good.subarray(0, 33), Buffer.from([0, 0, 0, 16, 0x49, 0x44, 0x41, 0x54]), Buffer.alloc(16, 0xab), Buffer.alloc(4), good.subarray(-12)]);
  await photos.setInputFiles({ name: 'damaged.png', mimeType: 'image/png', buffer: damaged });
  await expect(refusal).toContainText('"damaged.png" could not be read as a picture: the file is damaged.');

  // A real photo is added, and the refusal goes with the next choice.
  await photos.setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: good });
  await expect(page.getByRole('img', { name: 'Photo 1: front.png' })).toBeVisible();
  await expect(refusal).toHaveCount(0);
});

test('a host sets a car offline, edits its price, pickup locations and insurance plans, and the changes persist', async ({ page, request }) => {
  const car = (await hostCars(request, 'host_thabo')).find((c) => c.status === 'available' && !c.isRented && c.verification_status === 'verified');
  expect(car).toBeTruthy();
  const { car_username: carUsername, car_rent_price: originalPrice } = car!;
  const newPrice = originalPrice + 50;
  const pickupName = uniqueName('Rosebank Mall ');
  const planName = uniqueName('Windscreen Cover ');

  await loginThroughUi(page, 'host_thabo');
  await page.goto('/host-dashboard');
  const card = page.getByTestId(`fleet-car-${carUsername}`);
  const toggle = card.getByRole('switch', { name: 'Available for rent' });
  await expect(toggle).toHaveAttribute('aria-checked', 'true');

  await toggle.click();
  await expect(page.getByText('Car is now set to offline.').first()).toBeVisible();
  await expectNoAxeViolations(page, 'host dashboard');
  await expect(toggle).toHaveAttribute('aria-checked', 'false');

  await card.getByLabel('Daily rate').fill(String(newPrice));
  await card.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Price Updated').first()).toBeVisible();

  let dialog = await openManageDetails(page, card);
  await dialog.getByRole('button', { name: 'Add Pickup Location' }).click();
  await dialog.getByLabel('Location name', { exact: true }).fill(pickupName);
  await dialog.getByLabel('Address', { exact: true }).fill('50 Bath Ave, Rosebank, Johannesburg');
  await dialog.getByLabel('Type', { exact: true }).selectOption('mall');
  await dialog.getByLabel('Additional fee (R)').fill('75');
  await dialog.getByRole('button', { name: 'Save Pickup Options' }).click();
  await expect(page.getByText('Pickup Options Updated')).toBeVisible();
  await expectNoAxeViolations(page, 'manage details, pickup locations');

  await dialog.getByRole('tab', { name: 'Insurance Plans' }).click();
  await dialog.getByRole('button', { name: 'Add Insurance Plan' }).click();
  await dialog.getByLabel('Plan name', { exact: true }).fill(planName);
  await dialog.getByLabel('Description', { exact: true }).fill('Covers windscreen and tyre damage.');
  await dialog.getByLabel('Daily rate (R)').fill('45');
  await dialog.getByLabel('Excess amount (R)').fill('1000');
  await dialog.getByLabel('Coverage', { exact: true }).fill('Windscreen, Tyres');
  await dialog.getByLabel('Popular', { exact: true }).check();
  await dialog.getByRole('button', { name: 'Save Insurance Plans' }).click();
  await expect(page.getByText('Insurance Options Updated')).toBeVisible();
  await expectNoAxeViolations(page, 'manage details, insurance plans');
  await dialog.getByRole('button', { name: 'Close dialog' }).click();

  await page.reload();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await expect(card.getByText('Offline', { exact: true }).first()).toBeVisible();
  await expect(card.getByLabel('Daily rate')).toHaveValue(String(newPrice));
  dialog = await openManageDetails(page, card);
  await expect(dialog.getByText(pickupName)).toBeVisible();
  await expect(dialog.getByText('+R 75')).toBeVisible();
  await dialog.getByRole('tab', { name: 'Insurance Plans' }).click();
  await expect(dialog.getByText(planName)).toBeVisible();
  await expect(dialog.getByText('R 45/day')).toBeVisible();

  // Put the car back as the demo had it, through the same screens.
  await dialog.getByRole('button', { name: `Remove ${planName}` }).click();
  await page.getByRole('dialog', { name: `Remove ${planName}?` }).getByRole('button', { name: 'Remove', exact: true }).click();
  await dialog.getByRole('button', { name: 'Save Insurance Plans' }).click();
  await expect(page.getByText('Insurance Options Updated')).toBeVisible();
  await dialog.getByRole('tab', { name: 'Pickup Locations' }).click();
  await dialog.getByRole('button', { name: `Remove ${pickupName}` }).click();
  await page.getByRole('dialog', { name: `Remove ${pickupName}?` }).getByRole('button', { name: 'Remove', exact: true }).click();
  await dialog.getByRole('button', { name: 'Save Pickup Options' }).click();
  await expect(page.getByText('Pickup Options Updated')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close dialog' }).click();
  await card.getByLabel('Daily rate').fill(String(originalPrice));
  await card.getByRole('button', { name: 'Update' }).click();
  await expect(card.getByLabel('Daily rate')).toHaveValue(String(originalPrice));
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');

  const restored = (await hostCars(request, 'host_thabo')).find((c) => c.car_username === carUsername)!;
  expect(restored).toMatchObject({ status: 'available', car_rent_price: originalPrice });
});
