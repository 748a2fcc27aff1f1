// Car photos in the size they are shown (issue 22, decision 045), as a renter sees them: the demo
// cars have photo-like JPEG pictures of their own (not one silhouette), the browse cards and the
// car page draw them through <picture> with width and height set, the car page's main photo is
// fetched at once and its thumbnails lazily, and the conversion job gives a photo its widths and
// formats in the background (the API then answers them, and the files are AVIF/WebP/JPEG).
// Screens of /cars at 1280 and 390 px and of a car page: test-results/screens/car-photos-*.png.
import { expect, test } from './fixtures';

interface ListedCar {
  car_username: string;
  images?: string[];
  photos?: { src: string; variants: { width: number; avif: string; webp: string; jpeg: string }[] }[];
}

test('demo cars have photo-like pictures, drawn at the size they are shown, at 1280 and 390 px', async ({ page, request }) => {
  const list = await request.get('/api/car/getCarList?limit=12');
  expect(list.status()).toBe(200);
  const cars = ((await list.json()) as { data: ListedCar[] }).data;
  const first = cars[0]!.photos![0]!;
  expect(first.src).toMatch(/\/uploads\/cars\/[\w-]+\/(side|front|rear|interior)\.jpg$/);
  const photo = await request.get(first.src);
  expect(photo.headers()['content-type']).toBe('image/jpeg');
  // Pictures differ from car to car (body type and colour), unlike the one silhouette of before.
  const firstPhotos = await Promise.all(cars.slice(0, 6).map(async (car) => (await request.get(car.photos![0]!.src)).body()));
  expect(new Set(firstPhotos.map((b) => b.toString('base64'))).size).toBeGreaterThan(3);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
    await page.goto('/cars');
    const image = page.locator('article picture img').first();
    await expect(image).toBeVisible();
    await expect(image).toHaveAttribute('width', /\d+/);
    await expect(image).toHaveAttribute('height', /\d+/);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await page.screenshot({ path: `test-results/screens/car-photos-cars-${width}.png` });
  }

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/cars/${cars[0]!.car_username}`);
  const main = page.getByRole('img', { name: /photo 1 of/ });
  await expect(main).toBeVisible();
  await expect(main).toHaveAttribute('loading', 'eager');
  await expect(main).toHaveAttribute('fetchpriority', 'high');
  await expect(page.locator('section[aria-label="Photos"] button img').first()).toHaveAttribute('loading', 'lazy');
  await expect.poll(() => main.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await page.screenshot({ path: 'test-results/screens/car-photos-detail-1280.png' });
});

test('the conversion job gives the demo photos their widths and formats in the background', async ({ request }) => {
  test.setTimeout(600_000);
  // The seed enqueued one conversion per car; on a loaded 2-core machine they take minutes.
  let converted: NonNullable<ListedCar['photos']>[number] | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/car/getCarList?limit=48');
        const cars = ((await res.json()) as { data: ListedCar[] }).data;
        converted = cars.flatMap((c) => c.photos ?? []).find((p) => p.variants.length > 0);
        return !!converted;
      },
      { timeout: 540_000, intervals: [5_000] },
    )
    .toBe(true);
  expect(converted!.variants.map((v) => v.width)).toEqual([360, 720, 1280]);
  const avif = await request.get(converted!.variants[1]!.avif);
  expect(avif.status()).toBe(200);
  expect(avif.headers()['content-type']).toBe('image/avif');
  expect((await request.get(converted!.variants[1]!.webp)).headers()['content-type']).toBe('image/webp');
});
