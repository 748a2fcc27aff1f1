// What each public page says about itself (decision 044): its title and description, its canonical
// address, the Open Graph and Twitter card tags a shared link is previewed with (WhatsApp reads
// og:title, og:description and og:image), and its JSON-LD. Read from the data the page was rendered
// with (the server renderer's query cache), so the head and the page never disagree.
import { BASE_CITIES, browsePagePath, carPagePath, type Car } from '@karoo/shared';
import type { QueryClient, InfiniteData } from '@tanstack/react-query';
import { formatRand, formatRating, hasRating } from '@/lib/format';
import { queryKeys } from '@/lib/query-keys';

export const SITE_NAME = 'Karoo';
/** The landing page's preview picture (apps/web/public/og-image.png, 1200 x 630). */
export const DEFAULT_OG_IMAGE = '/og-image.png';
const DEFAULT_DESCRIPTION =
  'Karoo is a peer-to-peer car rental marketplace for South Africa. Rent cars from verified local hosts, by the day or the hour, and pay in rand.';

export interface PageMeta {
  title: string;
  description: string;
  /** Absolute. */
  canonical: string;
  /** Absolute; the page's main picture. */
  image: string;
  imageAlt: string;
  ogType: 'website' | 'product';
  jsonLd: Record<string, unknown> | null;
  /** 200, or 404 when the page's car is not on Karoo (the server turns a removed car into 410). */
  status: number;
  /** The car page's `{id}` whose car was not found. */
  missingCar?: string;
}

/** A browse page's car as its data holds it: the full car, or the lean card (fields=card). */
interface BrowseCar {
  car_username: string;
  title?: string;
  car_make?: string;
  car_model?: string;
  car_rent_price?: number;
  price_per_day?: number;
  images?: string[];
  photo?: { src: string } | null;
  pickup_location?: string;
}

interface BrowsePageData {
  cars: BrowseCar[];
  total: number;
  exact?: boolean;
}

export function absoluteUrl(origin: string, path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${origin}${path.startsWith('/') ? '' : '/'}${path}`;
}

function clip(text: string, max = 200): string {
  // Spaces and line breaks only: the no-break space inside a rand amount ("R 850") stays.
  const flat = text.replace(/[ \t\r\n]+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).replace(/ [^ ]*$/, '')}…`;
}

const browseCarName = (car: BrowseCar) => car.title ?? `${car.car_make ?? ''} ${car.car_model ?? ''}`.trim();
const browseCarImage = (car: BrowseCar) => car.photo?.src ?? car.images?.[0] ?? null;

/** The car page's `{id}` when `pathname` is a car page (/cars/:id or /car/:id). */
export function carPageId(pathname: string): string | null {
  const match = /^\/cars?\/([^/]+)\/?$/.exec(pathname);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

function landingMeta(origin: string, client: QueryClient): PageMeta {
  const count = client.getQueryData<number>(queryKeys.cars.count());
  const countText = count ? ` ${count.toLocaleString('en-ZA')} cars listed by local hosts.` : '';
  return {
    title: 'Karoo — Car rental from local hosts in South Africa',
    description: clip(`${DEFAULT_DESCRIPTION}${countText}`, 220),
    canonical: `${origin}/`,
    image: absoluteUrl(origin, DEFAULT_OG_IMAGE),
    imageAlt: 'Karoo: car rental from local hosts in South Africa',
    ogType: 'website',
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'WebSite',
      name: SITE_NAME,
      url: `${origin}/`,
      description: DEFAULT_DESCRIPTION,
      potentialAction: {
        '@type': 'SearchAction',
        target: { '@type': 'EntryPoint', urlTemplate: `${origin}/cars?location={location}` },
        'query-input': 'required name=location',
      },
    },
    status: 200,
  };
}

function browseMeta(origin: string, url: URL, client: QueryClient): PageMeta {
  const params = url.searchParams;
  const cityName = (params.get('location') ?? params.get('near') ?? '').trim();
  const city = BASE_CITIES.find((c) => c.name.toLowerCase() === cityName.toLowerCase())?.name ?? (cityName.length >= 2 ? cityName : '');
  const type = (params.get('type') ?? '').trim();
  const what = type ? `${type} cars` : 'Cars';
  const where = city ? ` in ${city}` : ' in South Africa';
  // The first page of the list the page shows (whatever its key's filters: the only list prefetched).
  const lists = client.getQueriesData<InfiniteData<BrowsePageData>>({ queryKey: queryKeys.cars.lists() });
  const first = lists.map(([, data]) => data?.pages[0]).find((page): page is BrowsePageData => !!page);
  const cars = first?.cars ?? [];
  const total = first?.total ?? 0;
  const prices = cars.map((car) => car.price_per_day ?? car.car_rent_price).filter((p): p is number => typeof p === 'number' && p > 0);
  const from = prices.length ? ` from ${formatRand(Math.min(...prices))} a day` : '';
  const count = first ? `${first.exact === false ? `${total.toLocaleString('en-ZA')}+` : total.toLocaleString('en-ZA')} ${total === 1 ? 'car' : 'cars'}` : 'Cars';
  const names = cars.slice(0, 3).map(browseCarName).filter(Boolean);
  const image = cars.map(browseCarImage).find((src): src is string => !!src);
  return {
    title: `${what} for hire${where} from local hosts — ${SITE_NAME}`,
    description: clip(
      `${count} for hire${where}${from}, from verified local hosts on ${SITE_NAME}.${names.length ? ` ${names.join(', ')} and more.` : ''} Book by the day and pay in rand.`,
    ),
    // The same function names the page in the sitemap (page-addresses.ts).
    canonical: `${origin}${browsePagePath({ location: city, type })}`,
    image: absoluteUrl(origin, image ?? DEFAULT_OG_IMAGE),
    imageAlt: `${what} for hire${where}`,
    ogType: 'website',
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      name: `${what} for hire${where}`,
      numberOfItems: cars.length,
      itemListElement: cars.map((car, i) => ({
        '@type': 'ListItem',
        position: i + 1,
        url: `${origin}${carPagePath(car.car_username)}`,
        name: browseCarName(car),
      })),
    },
    status: 200,
  };
}

function carMeta(origin: string, id: string, client: QueryClient): PageMeta {
  const car = client.getQueryData<Car>(queryKeys.cars.detail(id));
  if (!car) {
    return {
      title: `Car not found — ${SITE_NAME}`,
      description: 'This car is not listed on Karoo. Browse the cars local hosts offer across South Africa.',
      canonical: `${origin}${carPagePath(id)}`,
      image: absoluteUrl(origin, DEFAULT_OG_IMAGE),
      imageAlt: SITE_NAME,
      ogType: 'website',
      jsonLd: null,
      status: 404,
      missingCar: id,
    };
  }
  const name = `${car.car_make} ${car.car_model}`.trim();
  const price = formatRand(car.car_rent_price);
  const rated = hasRating(car.rating, car.totalReviews);
  const ratingText = rated ? `, rated ${formatRating(car.rating, car.totalReviews)} from ${car.totalReviews} ${car.totalReviews === 1 ? 'review' : 'reviews'}` : '';
  const spec = car.specifications;
  const details = [car.car_type, spec?.transmission || car.transmission, (spec?.seats || car.seating_capacity) ? `${spec?.seats || car.seating_capacity} seats` : '']
    .filter(Boolean)
    .join(', ');
  const url = `${origin}${carPagePath(car.car_username)}`;
  const images = (car.images?.length ? car.images : (car.car_images ?? [])).filter(Boolean).map((src) => absoluteUrl(origin, src));
  const offer = {
    '@type': 'Offer',
    url,
    price: car.car_rent_price.toFixed(2),
    priceCurrency: 'ZAR',
    availability: 'https://schema.org/InStock',
    priceSpecification: { '@type': 'UnitPriceSpecification', price: car.car_rent_price.toFixed(2), priceCurrency: 'ZAR', unitCode: 'DAY', referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitCode: 'DAY' } },
    seller: { '@type': 'Person', name: car.host.full_name || car.host.username },
  };
  return {
    title: `${name} ${car.car_year} for hire in ${car.pickup_location} — ${price}/day — ${SITE_NAME}`,
    description: clip(
      `Rent this ${car.car_year} ${name} in ${car.pickup_location} for ${price} a day${ratingText}.${details ? ` ${details}.` : ''} ${car.description || car.car_description || ''}`,
    ),
    canonical: url,
    image: images[0] ?? absoluteUrl(origin, DEFAULT_OG_IMAGE),
    imageAlt: `${name} ${car.car_year} in ${car.pickup_location}`,
    ogType: 'product',
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Car',
      name: `${name} ${car.car_year}`,
      brand: { '@type': 'Brand', name: car.car_make },
      model: car.car_model,
      vehicleModelDate: String(car.car_year),
      ...(car.car_color ? { color: car.car_color } : {}),
      ...(car.car_type ? { bodyType: car.car_type } : {}),
      description: clip(car.description || car.car_description || `${name} for hire in ${car.pickup_location}`, 500),
      url,
      ...(images.length ? { image: images } : {}),
      offers: offer,
      ...(rated
        ? { aggregateRating: { '@type': 'AggregateRating', ratingValue: Number(formatRating(car.rating, car.totalReviews)), reviewCount: car.totalReviews, bestRating: 5, worstRating: 1 } }
        : {}),
    },
    status: 200,
  };
}

/** The head of a public page; null for a page the server does not render (signed-in pages and the rest). */
export function pageMeta(url: URL, origin: string, client: QueryClient): PageMeta | null {
  if (url.pathname === '/') return landingMeta(origin, client);
  if (url.pathname === '/cars' || url.pathname === '/cars/') return browseMeta(origin, url, client);
  const id = carPageId(url.pathname);
  return id ? carMeta(origin, id, client) : null;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JSON inside a <script>: nothing in it can close the tag or open a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The tags of the head, as HTML. */
export function headTags(meta: PageMeta): string {
  const tags = [
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    `<link rel="canonical" href="${escapeHtml(meta.canonical)}" />`,
    meta.status !== 200 ? '<meta name="robots" content="noindex" />' : '',
    `<meta property="og:site_name" content="${SITE_NAME}" />`,
    `<meta property="og:type" content="${meta.ogType}" />`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(meta.canonical)}" />`,
    `<meta property="og:image" content="${escapeHtml(meta.image)}" />`,
    `<meta property="og:image:alt" content="${escapeHtml(meta.imageAlt)}" />`,
    '<meta property="og:locale" content="en_ZA" />',
    '<meta name="twitter:card" content="summary_large_image" />',
    `<meta name="twitter:title" content="${escapeHtml(meta.title)}" />`,
    `<meta name="twitter:description" content="${escapeHtml(meta.description)}" />`,
    `<meta name="twitter:image" content="${escapeHtml(meta.image)}" />`,
    meta.jsonLd ? `<script type="application/ld+json">${scriptJson(meta.jsonLd)}</script>` : '',
  ];
  return tags.filter(Boolean).join('\n    ');
}
