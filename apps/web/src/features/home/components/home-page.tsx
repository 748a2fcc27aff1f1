// The landing page (document 2 section 1): the pitch for renting and for earning, with the hero
// (browse cars, become a host), a live count of listed vehicles (the same count /cars shows with no
// filter), the average of every review on the platform ("New" until there is one; decisions.md
// section 5) and 24/7 support, why choose us, the 3-step process, platform features and a renter
// call to action.
// It stays light: no map, no forms library; browse and detail load when opened.
import { BASE_CITIES } from '@karoo/shared';
import {
  BadgeCheck,
  Bell,
  CalendarCheck,
  CarFront,
  Clock,
  Heart,
  Headphones,
  KeyRound,
  Lock,
  MapPinned,
  Search,
  ShieldCheck,
  Star,
  Truck,
  Wallet,
} from 'lucide-react';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { ButtonLink } from '@/components/ui/button';
import { formatRating } from '@/lib/format';
import { useListedCarsCount } from '@/lib/queries/car-count';
import { useReviewStats } from '@/lib/queries/reviews';
import { PATHS } from '@/lib/routes';

export const SUPPORT_HOURS = '24/7';

const STEPS = [
  {
    icon: Search,
    title: 'Find the right car',
    text: 'Browse cars shared by local hosts in your city, on a list or on the map, by the day or by the hour.',
  },
  {
    icon: CalendarCheck,
    title: 'Book with confidence',
    text: 'Pick your dates, pickup spot and cover, see every fee in rand, and send your request. Every member is verified.',
  },
  {
    icon: KeyRound,
    title: 'Hit the road',
    text: 'Meet your host, collect the keys and enjoy the trip. Leave a review when you’re back.',
  },
];

const REASONS = [
  { icon: BadgeCheck, title: 'Verified members', text: 'Renters and hosts confirm their identity and driver’s licence before they book or list.' },
  { icon: Wallet, title: 'Clear prices in rand', text: 'Every fee is itemised before you book. No surprises at checkout.' },
  { icon: ShieldCheck, title: 'Cover that fits', text: 'Choose the insurance plan and excess that suit your trip, right on the booking.' },
  { icon: Lock, title: 'Your documents stay private', text: 'Only you and Karoo’s verification team can open them, as POPIA requires.' },
];

const FEATURES = [
  { icon: Clock, title: 'Daily or hourly', text: 'Rent for a weekend away or just the afternoon you need a bakkie.' },
  { icon: MapPinned, title: 'Search on the map', text: 'See cars near you, coloured by price, and filter by type, fuel and features.' },
  { icon: Truck, title: 'Flexible pickup', text: 'Collect from the host, at the airport or a mall, or have the car delivered.' },
  { icon: Heart, title: 'Save favourites', text: 'Keep a shortlist of the cars you like and come back to them later.' },
  { icon: Bell, title: 'Real-time updates', text: 'Get notified the moment a host accepts your request.' },
  { icon: Headphones, title: `${SUPPORT_HOURS} support`, text: 'Our team is on hand day and night, wherever the road takes you.' },
];

function HeroArt() {
  return (
    <svg viewBox="0 0 480 360" className="h-auto w-full" role="img" aria-label="A car on an open road through the Karoo at sunset">
      <defs>
        <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#fed7aa" />
          <stop offset="1" stopColor="#fff7ed" />
        </linearGradient>
        <linearGradient id="land" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#d6a77a" />
          <stop offset="1" stopColor="#b7794a" />
        </linearGradient>
      </defs>
      <rect width="480" height="360" rx="28" fill="url(#sky)" />
      <circle cx="356" cy="118" r="42" fill="#fb923c" opacity="0.85" />
      <path d="M0 206 L70 206 L92 176 L170 176 L190 206 L260 206 L300 160 L372 160 L400 206 L480 206 L480 360 L0 360 Z" fill="#c2410c" opacity="0.35" />
      <path d="M0 222 L480 222 L480 332 Q480 360 452 360 L28 360 Q0 360 0 332 Z" fill="url(#land)" />
      <path d="M214 222 L266 222 L380 360 L100 360 Z" fill="#57534e" />
      <path d="M238 232 L242 232 L246 258 L234 258 Z M230 276 L250 276 L256 312 L224 312 Z M220 330 L260 330 L266 360 L214 360 Z" fill="#fde68a" />
      <g transform="translate(262 262)">
        <path d="M8 34 Q10 16 30 14 L52 4 Q60 0 72 0 L104 0 Q116 0 124 10 L136 22 Q150 24 152 38 L152 48 L8 48 Z" fill="#9a3412" />
        <path d="M58 8 L72 5 L100 5 L112 18 L52 18 Z" fill="#fed7aa" />
        <circle cx="40" cy="48" r="13" fill="#1c1917" />
        <circle cx="40" cy="48" r="5" fill="#a8a29e" />
        <circle cx="122" cy="48" r="13" fill="#1c1917" />
        <circle cx="122" cy="48" r="5" fill="#a8a29e" />
        <rect x="142" y="30" width="10" height="6" rx="3" fill="#fde68a" />
      </g>
      <g fill="#44403c" opacity="0.55">
        <path d="M60 252 q6 -16 12 0 z" />
        <path d="M118 286 q8 -20 16 0 z" />
        <path d="M420 262 q6 -14 12 0 z" />
      </g>
    </svg>
  );
}

function HeroSearch() {
  const navigate = useNavigate();
  const [location, setLocation] = useState('');
  const inputId = useId();
  const listId = useId();
  return (
    // A plain GET form to /cars with the field /cars reads: without JavaScript (or before it runs)
    // Enter lands on the server-rendered results; with it, the router navigates instead.
    <form
      role="search"
      method="get"
      action={PATHS.cars}
      className="mt-8 flex max-w-xl items-center gap-2 rounded-full bg-white p-2 shadow-pop ring-1 ring-stone-900/5"
      onSubmit={(event) => {
        event.preventDefault();
        const where = location.trim();
        navigate(where ? `${PATHS.cars}?location=${encodeURIComponent(where)}` : PATHS.cars);
      }}
    >
      <label htmlFor={inputId} className="sr-only">
        Where do you want to pick up a car?
      </label>
      <input
        id={inputId}
        name="location"
        list={listId}
        value={location}
        onChange={(event) => setLocation(event.target.value)}
        placeholder="Where to? Try Cape Town"
        className="min-w-0 flex-1 rounded-full bg-transparent px-4 py-2 text-[15px] text-stone-900 placeholder:text-stone-400 focus:outline-none"
      />
      <datalist id={listId}>
        {BASE_CITIES.map((city) => (
          <option key={city.name} value={city.name} />
        ))}
      </datalist>
      <button
        type="submit"
        className="inline-flex h-11 items-center gap-2 rounded-full bg-brand-600 px-5 text-sm font-semibold text-white hover:bg-brand-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2"
      >
        <Search className="size-4" aria-hidden="true" /> Search
      </button>
    </form>
  );
}

function Stats() {
  const { data: count, isError } = useListedCarsCount();
  const ratings = useReviewStats();
  const stats = [
    { value: count !== undefined ? count.toLocaleString('en-ZA') : isError ? '—' : '…', label: 'Vehicles listed', icon: CarFront, testId: 'vehicle-count' },
    {
      value: ratings.data ? formatRating(ratings.data.average, ratings.data.count) : ratings.isError ? '—' : '…',
      label: 'Average rating',
      icon: Star,
      testId: 'average-rating',
    },
    { value: SUPPORT_HOURS, label: 'Support', icon: Headphones, testId: 'support' },
  ];
  return (
    <dl className="mt-10 grid max-w-xl grid-cols-3 gap-2 sm:gap-4">
      {stats.map((stat) => (
        <div key={stat.label} className="min-w-0 rounded-2xl bg-white/70 px-3 py-3 ring-1 ring-stone-900/5 sm:px-4">
          <dt className="flex items-center gap-1.5 text-xs font-medium text-stone-500">
            
            <stat.icon className="hidden size-3.5 shrink-0 sm:block" aria-hidden="true" /> {stat.label}
          </dt>
          <dd className="mt-1 text-2xl font-extrabold tracking-tight text-stone-900" data-testid={stat.testId}>
            {stat.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function HomePage() {
  return (
    <div>
      <section className="relative overflow-hidden bg-gradient-to-b from-brand-50 via-white to-stone-50">
        <div className="mx-auto grid max-w-7xl grid-cols-1 items-center gap-12 px-4 py-14 sm:px-6 sm:py-20 lg:grid-cols-2 lg:px-8 lg:py-24">
          <div className="min-w-0">
            <p className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-xs font-semibold text-brand-700 shadow-sm ring-1 ring-brand-100">
              <CarFront className="size-4" aria-hidden="true" /> Peer-to-peer car rental in South Africa
            </p>
            <h1 className="mt-5 text-4xl font-extrabold tracking-tight text-stone-900 sm:text-5xl lg:text-6xl">
              Rent the car you need from <span className="text-brand-600">hosts near you</span>
            </h1>
            <p className="mt-5 max-w-xl text-lg leading-8 text-stone-600">
              Karoo connects you with verified local car owners, from a city runabout for the weekend to a bakkie for the move. Book by the
              day or the hour, and pay in rand.
            </p>
            <HeroSearch />
            <div className="mt-6 flex flex-col gap-3 sm:flex-row">
              <ButtonLink to={PATHS.cars} size="lg" icon={<Search className="size-5" aria-hidden="true" />}>
                Browse Cars
              </ButtonLink>
              <ButtonLink to={PATHS.becomeHost} size="lg" variant="secondary" icon={<KeyRound className="size-5" aria-hidden="true" />}>
                Become a Host
              </ButtonLink>
            </div>
            <Stats />
          </div>
          <div className="relative mx-auto hidden w-full max-w-lg sm:block lg:max-w-none">
            <div className="absolute -inset-4 -z-10 rounded-[2.5rem] bg-brand-100/50 blur-2xl" aria-hidden="true" />
            <div className="overflow-hidden rounded-[1.75rem] shadow-pop ring-1 ring-stone-900/5">
              <HeroArt />
            </div>
          </div>
        </div>
      </section>

      <section aria-labelledby="why-karoo" className="border-y border-stone-200 bg-white">
        <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
          <div className="max-w-2xl">
            <h2 id="why-karoo" className="text-3xl font-bold tracking-tight text-stone-900">
              Why choose Karoo
            </h2>
            <p className="mt-3 text-stone-600">Built on trust between neighbours, with the checks and cover that make it safe.</p>
          </div>
          <div className="mt-10 grid gap-8 sm:grid-cols-2 lg:grid-cols-4">
            {REASONS.map((item) => (
              <div key={item.title}>
                <span className="flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
                  <item.icon className="size-5" aria-hidden="true" />
                </span>
                <h3 className="mt-4 font-semibold text-stone-900">{item.title}</h3>
                <p className="mt-1 text-sm leading-6 text-stone-600">{item.text}</p>
              </div>
            ))}
          </div>
        </div>
      </section>

      <section aria-labelledby="how-it-works" className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
        <div className="max-w-2xl">
          <h2 id="how-it-works" className="text-3xl font-bold tracking-tight text-stone-900">
            How it works
          </h2>
          <p className="mt-3 text-stone-600">Three steps from searching to driving.</p>
        </div>
        <ol className="mt-10 grid gap-6 md:grid-cols-3">
          {STEPS.map((step, index) => (
            <li key={step.title} className="relative rounded-2xl border border-stone-200 bg-white p-6 shadow-card">
              <div className="flex items-center gap-3">
                <span className="flex size-11 items-center justify-center rounded-xl bg-brand-600 text-white">
                  <step.icon className="size-5" aria-hidden="true" />
                </span>
                <span className="text-sm font-semibold text-brand-700">Step {index + 1}</span>
              </div>
              <h3 className="mt-5 text-lg font-semibold text-stone-900">{step.title}</h3>
              <p className="mt-2 text-sm leading-6 text-stone-600">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="platform-features" className="border-y border-stone-200 bg-white">
        <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
          <h2 id="platform-features" className="text-3xl font-bold tracking-tight text-stone-900">
            Everything you need for the trip
          </h2>
          <div className="mt-10 grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map((item) => (
              <div key={item.title} className="flex gap-4">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-stone-100 text-stone-700">
                  <item.icon className="size-5" aria-hidden="true" />
                </span>
                <div>
                  <h3 className="font-semibold text-stone-900">{item.title}</h3>
                  <p className="mt-1 text-sm leading-6 text-stone-600">{item.text}</p>
                </div>
              </div>
            ))}
          </div>
        </div>
      </section>

      <section className="mx-auto grid max-w-7xl gap-6 px-4 py-16 sm:px-6 lg:grid-cols-2 lg:px-8">
        <div className="flex flex-col items-start gap-6 rounded-3xl bg-brand-600 px-6 py-10 text-white sm:px-10">
          <div>
            <h2 className="text-2xl font-bold tracking-tight sm:text-3xl">Ready to hit the road?</h2>
            <p className="mt-3 text-brand-50">Find a car near you for the weekend, the week or just a few hours.</p>
          </div>
          <ButtonLink to={PATHS.cars} size="lg" variant="inverse">
            Find a Car
          </ButtonLink>
        </div>
        <div className="flex flex-col items-start gap-6 rounded-3xl bg-stone-900 px-6 py-10 text-white sm:px-10">
          <div>
            <h2 className="text-2xl font-bold tracking-tight sm:text-3xl">Your car could be earning while you don&apos;t need it</h2>
            <p className="mt-3 text-stone-300">List it on Karoo, set your own price and pickup spot, and approve every booking yourself.</p>
          </div>
          <ButtonLink to={PATHS.becomeHost} size="lg" variant="inverse">
            Start hosting
          </ButtonLink>
        </div>
      </section>
    </div>
  );
}
