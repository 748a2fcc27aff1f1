// The public pages as a crawler, a phone before its scripts run, or a link preview reads them
// (issue 22, decision 044): /, /cars?... and a car page are sent as HTML with their cars, title,
// description, canonical address, Open Graph image and JSON-LD, read here as text (no script runs);
// a car that is not listed answers 404 with a page, a deleted one 410; an edit shows at once; a
// failed render sends the shell; sitemap.xml lists every listed car and nothing else, paged into a
// sitemap index past its file size; robots.txt names it. The web app's server renderer
// (apps/web/src/entry-server.tsx) is loaded through Vite from source, so no build is needed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageRenderer } from '../src/modules/pages';
import { sitemap } from '../src/modules/pages/sitemap';
import { createSignedInUser, createTestApp, TEST_APP_URL, type TestApp } from './helpers';
import { createTestCar } from './helpers/vehicles';

const webRoot = fileURLToPath(new URL('../../web/', import.meta.url));
const template = readFileSync(path.join(webRoot, 'index.html'), 'utf8');

let vite: ViteDevServer;
let renderer: PageRenderer;
let failRenders = false;
/** The render's API calls answer 503, as while the database is away. */
let apiAway = false;
let t: TestApp;
let dist: string;
let owner: Awaited<ReturnType<typeof createSignedInUser>>;
const cars: Record<string, Awaited<ReturnType<typeof createTestCar>>> = {};

const PHOTO = '/uploads/cars/test/front.jpg';

const MANIFEST = {
  'src/main.tsx': { file: 'assets/index-T.js', isEntry: true, imports: ['_react-T.js'] },
  '_react-T.js': { file: 'assets/react-T.js' },
  '_forms-T.js': { file: 'assets/forms-T.js', imports: ['_react-T.js'] },
  'src/app/routes/car-detail-route.tsx': { file: 'assets/car-detail-route-T.js', isDynamicEntry: true, imports: ['_forms-T.js', '_react-T.js'] },
  'src/app/routes/browse-route.tsx': { file: 'assets/browse-route-T.js', isDynamicEntry: true, imports: ['_forms-T.js'] },
};
/** The page's code as it names it for /boot.js (decision 052): its entry and the modules fetched with it. */
const codeOf = (html: string) => {
  const text = /<script type="application\/json" id="karoo-code">([^<]*)<\/script>/.exec(html)?.[1];
  return text ? (JSON.parse(text) as { entry: string; preload: string[] }) : null;
};

beforeAll(async () => {
  const { createServer } = await import('vite');
  vite = await createServer({
    root: webRoot,
    configFile: path.join(webRoot, 'vite.config.ts'),
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  });
  const source = (await vite.ssrLoadModule('/src/entry-server.tsx')) as PageRenderer;
  // The renderer as built, or one that fails (the fallback's test).
  const away = async () => ({ status: 503, body: JSON.stringify({ success: false, message: 'The service is briefly unavailable. Please try again in a moment.' }) });
  renderer = { render: (request) => (failRenders ? Promise.reject(new Error('render exploded')) : source.render(apiAway ? { ...request, api: away } : request)) };
  dist = await mkdtemp(path.join(tmpdir(), 'karoo-ssr-dist-'));
  await writeFile(path.join(dist, 'index.html'), template);
  // The build's manifest (vite.config.ts `manifest`), as Vite writes it: the pages' route chunks.
  await mkdir(path.join(dist, '.vite'));
  await writeFile(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
  t = await createTestApp({ webDistDir: dist, pages: { pageRenderer: renderer, pageTemplate: template, sitemapUrlsPerFile: 4 } });
  owner = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified', full_name: 'Thabo Nkosi' });
  const photos = { images: JSON.stringify([PHOTO, '/uploads/cars/test/side.jpg']) };
  cars.durban = await createTestCar(t.ctx, owner.user, { make: 'Mazda', model: 'CX-5', city: 'Durban', price: 850, type: 'SUV', rating: 4.6, total_reviews: 7, overrides: photos });
  cars.cape = await createTestCar(t.ctx, owner.user, { make: 'Volkswagen', model: 'Polo', city: 'Cape Town', price: 420, overrides: photos });
  cars.unverified = await createTestCar(t.ctx, owner.user, { make: 'Kia', model: 'Picanto', city: 'Durban', verification_status: 'pending_verification' });
  cars.offline = await createTestCar(t.ctx, owner.user, { make: 'Ford', model: 'Ranger', city: 'Durban', status: 'maintenance' });
  cars.deleted = await createTestCar(t.ctx, owner.user, { make: 'Honda', model: 'Jazz', city: 'Durban', deleted: true });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await vite?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

async function page(url: string) {
  const res = await t.app.inject({ method: 'GET', url });
  return { status: res.statusCode, html: res.body, type: res.headers['content-type'] };
}

const metaContent = (html: string, attr: 'name' | 'property', key: string) =>
  new RegExp(`<meta ${attr}="${key.replace(/[:.]/g, '\\$&')}" content="([^"]*)"`).exec(html)?.[1] ?? null;
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? null;
const jsonLdOf = (html: string) => {
  const text = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1];
  return text ? (JSON.parse(text) as Record<string, unknown>) : null;
};
const rootOf = (html: string) => /<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(html)?.[1] ?? '';

describe('server-rendered public pages', () => {
  it('a car page carries the car, its price, city and rating, with its head and JSON-LD', async () => {
    const { status, html, type } = await page(`/cars/${cars.durban!.car_username}`);
    expect(status).toBe(200);
    expect(type).toMatch(/text\/html/);
    const root = rootOf(html);
    expect(root).toContain('Mazda CX-5');
    expect(root).toMatch(/R\u00a0850/);
    expect(root).toContain('Durban');
    expect(titleOf(html)).toBe('Mazda CX-5 2022 for hire in Durban — R\u00a0850/day — Karoo');
    // One title and one description: the template's own were replaced.
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
    const description = metaContent(html, 'name', 'description')!;
    expect(description).toContain('Durban');
    expect(description).toMatch(/R\u00a0850 a day/);
    expect(description).toContain('rated 4.6 from 7 reviews');
    const canonical = `${TEST_APP_URL}/cars/${cars.durban!.car_username}`;
    expect(html).toContain(`<link rel="canonical" href="${canonical}" />`);
    expect(metaContent(html, 'property', 'og:image')).toBe(`${TEST_APP_URL}${PHOTO}`);
    expect(metaContent(html, 'name', 'twitter:image')).toBe(`${TEST_APP_URL}${PHOTO}`);
    expect(metaContent(html, 'property', 'og:title')).toBe(titleOf(html));
    expect(metaContent(html, 'name', 'twitter:card')).toBe('summary_large_image');
    const ld = jsonLdOf(html)!;
    expect(ld['@type']).toBe('Car');
    expect(ld.url).toBe(canonical);
    expect(ld.offers).toMatchObject({ '@type': 'Offer', price: '850.00', priceCurrency: 'ZAR' });
    expect(ld.aggregateRating).toMatchObject({ '@type': 'AggregateRating', ratingValue: 4.6, reviewCount: 7 });
    // The state the browser hydrates from, as data (never run).
    expect(html).toContain('<script type="application/json" id="karoo-query-state">');
    expect(html).toContain('<script type="application/json" id="karoo-router-state">');
  });

  it('a car without reviews has no AggregateRating; /car/{id} names the same canonical page', async () => {
    const { status, html } = await page(`/car/${cars.cape!.id}`);
    expect(status).toBe(200);
    expect(rootOf(html)).toContain('Volkswagen Polo');
    expect(html).toContain(`<link rel="canonical" href="${TEST_APP_URL}/cars/${cars.cape!.car_username}" />`);
    const ld = jsonLdOf(html)!;
    expect(ld.offers).toMatchObject({ price: '420.00', priceCurrency: 'ZAR' });
    expect(ld.aggregateRating).toBeUndefined();
  });

  it('the browse page of a city lists its cars, with a title of its own', async () => {
    const { status, html } = await page('/cars?location=Durban');
    expect(status).toBe(200);
    const root = rootOf(html);
    expect(root).toContain('Mazda CX-5');
    expect(root).not.toContain('Volkswagen Polo');
    expect(root).not.toContain('Kia Picanto');
    expect(titleOf(html)).toBe('Cars for hire in Durban from local hosts — Karoo');
    expect(metaContent(html, 'name', 'description')).toMatch(/^1 car for hire in Durban from R\u00a0850 a day/);
    expect(html).toContain(`<link rel="canonical" href="${TEST_APP_URL}/cars?location=Durban" />`);
    expect(metaContent(html, 'property', 'og:image')).toBe(`${TEST_APP_URL}${PHOTO}`);
    const ld = jsonLdOf(html)!;
    expect(ld['@type']).toBe('ItemList');
    expect(ld.itemListElement).toEqual([expect.objectContaining({ position: 1, url: `${TEST_APP_URL}/cars/${cars.durban!.car_username}` })]);
  });

  it('the whole browse page lists every listed car', async () => {
    const { html } = await page('/cars');
    const root = rootOf(html);
    expect(root).toContain('Mazda CX-5');
    expect(root).toContain('Volkswagen Polo');
    expect(root).not.toContain('Honda Jazz');
    expect(titleOf(html)).toBe('Cars for hire in South Africa from local hosts — Karoo');
  });

  it('the landing page has its own title, description, preview picture, JSON-LD and figures', async () => {
    const { status, html } = await page('/');
    expect(status).toBe(200);
    expect(titleOf(html)).toBe('Karoo — Car rental from local hosts in South Africa');
    expect(metaContent(html, 'name', 'description')).toContain('2 cars listed by local hosts');
    expect(metaContent(html, 'property', 'og:image')).toBe(`${TEST_APP_URL}/og-image.png`);
    expect(jsonLdOf(html)).toMatchObject({ '@type': 'WebSite', url: `${TEST_APP_URL}/` });
    expect(rootOf(html)).toMatch(/data-testid="vehicle-count">2</);
    // Nobody's session is known on the server: the account corner waits, it never says Sign In to a signed-in user.
    expect(rootOf(html)).toContain('data-testid="session-pending"');
  });

  it("a page's code is loaded after the page (boot.js), with its route's chunks and what they import, once each", async () => {
    const car = (await page(`/cars/${cars.durban!.car_username}`)).html;
    expect(codeOf(car)).toEqual({ entry: '/src/main.tsx', preload: ['/assets/car-detail-route-T.js', '/assets/forms-T.js', '/assets/react-T.js'] });
    expect(codeOf((await page('/cars?location=Durban')).html)?.preload).toEqual(['/assets/browse-route-T.js', '/assets/forms-T.js', '/assets/react-T.js']);
    // The landing page's code is all in the entry.
    expect(codeOf((await page('/')).html)).toEqual({ entry: '/src/main.tsx', preload: [] });
    // No script of the page's own is fetched before it has loaded: only the loader, deferred.
    expect(car).not.toMatch(/<script type="module"|rel="modulepreload"/);
    expect(car).toContain('<script src="/boot.js" defer></script>');
    // The shell of the other pages loads its code at once, as before: there the code is the page.
    const shell = (await page('/login')).html;
    expect(shell).toContain('<script type="module" src="/src/main.tsx"></script>');
    expect(shell).not.toContain('boot.js');
  });

  it('an unlisted car or one that never was answers 404 with a page; a deleted car 410', async () => {
    for (const car of [cars.unverified!, cars.offline!]) {
      const { status, html } = await page(`/cars/${car.car_username}`);
      expect(status, car.car_make).toBe(404);
      expect(rootOf(html)).toContain('Car Not Found');
      expect(rootOf(html)).toContain('href="/cars"');
      expect(html).toContain('<meta name="robots" content="noindex" />');
      expect(rootOf(html)).not.toContain(car.car_model);
    }
    expect((await page('/cars/no-such-car-000000')).status).toBe(404);
    const gone = await page(`/cars/${cars.deleted!.car_username}`);
    expect(gone.status).toBe(410);
    expect(rootOf(gone.html)).toContain('Car Not Found');
    expect((await page(`/car/${cars.deleted!.id}`)).status).toBe(410);
  });

  it('an edit shows on the car page at once (the cache is cleared through the cache bus)', async () => {
    const url = `/cars/${cars.cape!.car_username}`;
    expect(rootOf((await page(url)).html)).toMatch(/R\u00a0420/);
    const res = await t.app.inject({ method: 'POST', url: `/api/rent/updateCarRentPrice/${cars.cape!.id}`, headers: owner.headers, payload: { car_rent_price: 455 } });
    expect(res.statusCode).toBe(200);
    const after = (await page(url)).html;
    expect(rootOf(after)).toMatch(/R\u00a0455/);
    expect(titleOf(after)).toContain('R\u00a0455/day');
  });

  it('signed-in pages and the rest stay the client-rendered shell', async () => {
    for (const url of ['/profile', '/admin', '/login']) {
      const { status, html } = await page(url);
      expect(status, url).toBe(200);
      expect(html).toBe(template);
    }
  });

  it('a render that fails sends the client-rendered shell, never an error page', async () => {
    failRenders = true;
    try {
      const res = await t.app.inject({ method: 'GET', url: '/cars?location=Kimberley' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(template);
    } finally {
      failRenders = false;
    }
  });
});

describe('a render while the database is away', () => {
  it('sends the client-rendered page, not "Car Not Found" with a 404, and keeps nothing', async () => {
    const url = `/cars/${cars.durban!.car_username}?from=away`;
    apiAway = true;
    try {
      for (const path of [url, '/cars?location=Durban&from=away', '/?from=away']) {
        const res = await t.app.inject({ method: 'GET', url: path });
        expect(res.statusCode, path).toBe(200);
        expect(res.body, path).toBe(template);
      }
    } finally {
      apiAway = false;
    }
    // Back: the same address is rendered, with its car.
    const back = await page(url);
    expect(back.status).toBe(200);
    expect(rootOf(back.html)).toContain('Mazda');
  });
});

describe('render limits', () => {
  it('one address past RATE_LIMIT_PER_MINUTE renders a minute gets the shell; pages already rendered are still sent', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2' }, webDistDir: dist, pages: { pageRenderer: renderer, pageTemplate: template } });
    try {
      const get = (url: string) => limited.app.inject({ method: 'GET', url });
      const rendered = (body: string) => body.includes('id="karoo-router-state"');
      expect(rendered((await get('/cars?location=Durban')).body)).toBe(true);
      expect(rendered((await get('/cars?location=Pretoria')).body)).toBe(true);
      const third = await get('/cars?location=Polokwane');
      expect(third.statusCode).toBe(200);
      expect(third.body).toBe(template);
      // Already rendered: sent from the cache.
      expect(rendered((await get('/cars?location=Durban')).body)).toBe(true);
    } finally {
      await limited.close();
    }
  }, 60_000);
});

describe('sitemap.xml and robots.txt', () => {
  const locsOf = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

  it('past one file, /sitemap.xml is an index; its files list every listed car once with lastmod, and the cities', async () => {
    const index = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toMatch(/application\/xml/);
    expect(index.body).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const files = locsOf(index.body);
    // 5 pages + 2 cities (Durban, Cape Town) + 2 listed cars = 9 addresses, 4 a file.
    expect(files).toEqual([1, 2, 3].map((n) => `${TEST_APP_URL}/sitemaps/${n}.xml`));
    const all: string[] = [];
    for (const file of files) {
      const res = await t.app.inject({ method: 'GET', url: new URL(file).pathname });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<urlset');
      const locs = locsOf(res.body);
      expect(locs.length).toBeLessThanOrEqual(4);
      all.push(...locs);
    }
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual(
      expect.arrayContaining([
        `${TEST_APP_URL}/`,
        `${TEST_APP_URL}/cars`,
        `${TEST_APP_URL}/cars?location=Durban`,
        `${TEST_APP_URL}/cars?location=Cape+Town`,
        `${TEST_APP_URL}/cars/${cars.durban!.car_username}`,
        `${TEST_APP_URL}/cars/${cars.cape!.car_username}`,
      ]),
    );
    expect(all).toHaveLength(9);
    for (const car of [cars.unverified!, cars.offline!, cars.deleted!]) expect(all.join('\n')).not.toContain(car.car_username);
    const last = await t.app.inject({ method: 'GET', url: '/sitemaps/3.xml' });
    expect(last.body).toMatch(/<lastmod>\d{4}-\d\d-\d\dT[\d:.]+Z<\/lastmod>/);
    expect((await t.app.inject({ method: 'GET', url: '/sitemaps/4.xml' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/sitemaps/x.xml' })).statusCode).toBe(404);
  });

  it('within one file, /sitemap.xml is the list itself', async () => {
    const { xml } = await sitemap(t.ctx, TEST_APP_URL, 50);
    expect(xml).toContain('<urlset');
    const locs = locsOf(xml);
    expect(locs).toHaveLength(9);
    expect(locs).toContain(`${TEST_APP_URL}/cars/${cars.durban!.car_username}`);
    expect(locs.join('\n')).not.toContain(cars.offline!.car_username);
  });

  it('robots.txt keeps crawlers off the API and signed-in pages and names the sitemap', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    for (const line of ['User-agent: *', 'Disallow: /api/', 'Disallow: /admin', 'Disallow: /profile', 'Disallow: /my-bookings', `Sitemap: ${TEST_APP_URL}/sitemap.xml`]) {
      expect(res.body).toContain(line);
    }
  });
});

describe('what works before any script runs (issue 32)', () => {
  it("a car page's reviews are in its HTML, never 'Loading reviews…'", async () => {
    const reviewer = await createSignedInUser(t.app, t.ctx, { full_name: 'Lerato Dlamini' });
    // Written straight to the table, so the car's stored rating (4.6 from 7) that other tests read stays.
    await t.ctx.db.insertInto('reviews').values({ car_id: cars.durban!.id, reviewer_id: reviewer.user.id, rating: 5, comment: 'Spotless, and the host was early.' }).execute();
    const { status, html } = await page(`/car/${cars.durban!.id}`);
    expect(status).toBe(200);
    const root = rootOf(html);
    expect(root).toContain('Spotless, and the host was early.');
    expect(root).toContain(reviewer.user.username);
    expect(root).not.toContain('Loading reviews');
  });

  it("the landing page's search is a plain GET form to /cars whose field /cars reads", async () => {
    const root = rootOf((await page('/')).html);
    const form = /<form[^>]*role="search"[^>]*>[\s\S]*?<\/form>/.exec(root)?.[0] ?? '';
    expect(form).toMatch(/method="get"/);
    expect(form).toMatch(/action="\/cars"/);
    expect(form).toMatch(/<input[^>]*name="location"/);
    // What the browser sends on Enter, rendered by the server with the city's cars.
    const results = rootOf((await page('/cars?location=Durban')).html);
    expect(results).toContain('Mazda CX-5');
    expect(results).not.toContain('Volkswagen Polo');
  });
});
