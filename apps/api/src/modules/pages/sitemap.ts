// sitemap.xml and robots.txt (decision 044). The sitemap names the public pages, the browse page of
// every city with listed cars, and every listed car's page with the time it last changed. The
// protocol allows 50,000 addresses a file: past that, /sitemap.xml is a sitemap index of numbered
// files (/sitemaps/1.xml, 2.xml ...), the cars in a stable order (by id), so each file holds the
// same cars from one visit to the next. robots.txt keeps crawlers off the API and signed-in pages
// and names the sitemap.
import { browsePagePath, carPagePath } from '@karoo/shared';
import type { AppContext } from '../../context';
import { citiesWithListedCars, countListedCars, listedCarsForSitemap } from '../cars';

/** The protocol's limit of addresses in one sitemap file. */
export const SITEMAP_MAX_URLS = 50_000;

/** Public pages that are not a car or a city (their content changes with the cars: no lastmod). */
const STATIC_PATHS = ['/', '/cars', '/become-host', '/terms', '/privacy'];

interface Entry {
  loc: string;
  lastmod?: Date;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

function urlset(entries: Entry[]): string {
  const urls = entries.map((e) => `<url><loc>${escapeXml(e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod.toISOString()}</lastmod>` : ''}</url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

function sitemapIndex(origin: string, files: number, lastmod: Date | null): string {
  const items = Array.from({ length: files }, (_, i) => `<sitemap><loc>${escapeXml(`${origin}/sitemaps/${i + 1}.xml`)}</loc>${lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ''}</sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join('\n')}\n</sitemapindex>\n`;
}

async function leadingEntries(ctx: AppContext, origin: string): Promise<Entry[]> {
  const cities = await citiesWithListedCars(ctx);
  return [
    ...STATIC_PATHS.map((p) => ({ loc: `${origin}${p}` })),
    // Named by the function that builds the pages' canonical links (page-addresses.ts): one address a page.
    ...cities.map((c) => ({ loc: `${origin}${browsePagePath({ location: c.city })}`, lastmod: c.updated_at })),
  ];
}

/** One file's entries: file `n` (from 1) of the whole list, the pages and cities first, then the cars. */
async function entriesOfFile(ctx: AppContext, origin: string, n: number, perFile: number, leading: Entry[]): Promise<Entry[]> {
  const start = (n - 1) * perFile;
  const fromLeading = leading.slice(start, start + perFile);
  const carOffset = Math.max(0, start - leading.length);
  const carLimit = perFile - fromLeading.length;
  const cars = carLimit > 0 ? await listedCarsForSitemap(ctx, carOffset, carLimit) : [];
  return [...fromLeading, ...cars.map((car) => ({ loc: `${origin}${carPagePath(car.car_username)}`, lastmod: car.updated_at }))];
}

export interface SitemapAnswer {
  status: 200 | 404;
  xml: string;
}

/** /sitemap.xml: every address when they fit in one file, else the index of the numbered files. */
export async function sitemap(ctx: AppContext, origin: string, perFile = SITEMAP_MAX_URLS): Promise<SitemapAnswer> {
  const [leading, cars] = await Promise.all([leadingEntries(ctx, origin), countListedCars(ctx)]);
  const total = leading.length + cars;
  if (total <= perFile) return { status: 200, xml: urlset(await entriesOfFile(ctx, origin, 1, perFile, leading)) };
  const newest = leading.reduce<Date | null>((at, e) => (e.lastmod && (!at || e.lastmod > at) ? e.lastmod : at), null);
  return { status: 200, xml: sitemapIndex(origin, Math.ceil(total / perFile), newest) };
}

/** /sitemaps/{n}.xml: file n of the index; 404 past the last. */
export async function sitemapFile(ctx: AppContext, origin: string, n: number, perFile = SITEMAP_MAX_URLS): Promise<SitemapAnswer> {
  const [leading, cars] = await Promise.all([leadingEntries(ctx, origin), countListedCars(ctx)]);
  const files = Math.max(1, Math.ceil((leading.length + cars) / perFile));
  if (!Number.isInteger(n) || n < 1 || n > files) return { status: 404, xml: '' };
  return { status: 200, xml: urlset(await entriesOfFile(ctx, origin, n, perFile, leading)) };
}

/** Signed-in and private pages crawlers have no business with (the app's own routes, app/router.tsx). */
const PRIVATE_PATHS = [
  '/api/',
  '/admin',
  '/api-playground',
  '/api-test',
  '/dashboard',
  '/host-dashboard',
  '/my-bookings',
  '/earnings',
  '/profile',
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password',
  '/sign-in-link',
  '/signin',
];

export function robotsTxt(origin: string): string {
  return [
    '# Karoo: the marketplace pages are public; accounts, bookings, admin and the API are not for crawlers.',
    'User-agent: *',
    'Allow: /',
    ...PRIVATE_PATHS.map((p) => `Disallow: ${p}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}
