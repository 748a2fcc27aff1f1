// The landing page: what Karoo is, the two ways in (rent or host) and how a rental works.
// Document 2 describes the full landing page with live listings; it arrives with the vehicles release.
import { BadgeCheck, CalendarCheck, CarFront, KeyRound, Lock, Search, Wallet } from 'lucide-react';
import { ButtonLink } from '@/components/ui/button';
import { PATHS } from '@/lib/routes';

const STEPS = [
  {
    icon: Search,
    title: 'Find the right car',
    text: 'Browse cars shared by local hosts in your city, by the day or by the hour.',
  },
  {
    icon: CalendarCheck,
    title: 'Book with confidence',
    text: 'Request your dates, get the host’s answer and pay securely in rand. Every member is verified.',
  },
  {
    icon: KeyRound,
    title: 'Hit the road',
    text: 'Meet your host, collect the keys and enjoy the trip. Leave a review when you’re back.',
  },
];

const PROMISES = [
  { icon: BadgeCheck, title: 'Verified members', text: 'Renters and hosts confirm their identity and driver’s licence before they book or list.' },
  { icon: Wallet, title: 'Clear prices in rand', text: 'Every fee is itemised before you pay. No surprises at checkout.' },
  { icon: Lock, title: 'Your documents stay private', text: 'Only you and Karoo’s verification team can open them, as POPIA requires.' },
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

export function HomePage() {
  return (
    <div>
      <section className="relative overflow-hidden bg-gradient-to-b from-brand-50 via-white to-stone-50">
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-14 sm:px-6 sm:py-20 lg:grid-cols-2 lg:px-8 lg:py-24">
          <div>
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
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <ButtonLink to={PATHS.cars} size="lg" icon={<Search className="size-5" aria-hidden="true" />}>
                Browse cars
              </ButtonLink>
              <ButtonLink to={PATHS.becomeHost} size="lg" variant="secondary" icon={<KeyRound className="size-5" aria-hidden="true" />}>
                Become a host
              </ButtonLink>
            </div>
          </div>
          <div className="relative mx-auto w-full max-w-lg lg:max-w-none">
            <div className="absolute -inset-4 -z-10 rounded-[2.5rem] bg-brand-100/50 blur-2xl" aria-hidden="true" />
            <div className="overflow-hidden rounded-[1.75rem] shadow-pop ring-1 ring-stone-900/5">
              <HeroArt />
            </div>
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

      <section aria-labelledby="why-karoo" className="border-y border-stone-200 bg-white">
        <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
          <h2 id="why-karoo" className="text-3xl font-bold tracking-tight text-stone-900">
            Built on trust
          </h2>
          <div className="mt-10 grid gap-8 md:grid-cols-3">
            {PROMISES.map((item) => (
              <div key={item.title} className="flex gap-4">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-600">
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

      <section className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
        <div className="flex flex-col items-start gap-6 rounded-3xl bg-stone-900 px-6 py-10 text-white sm:px-10 md:flex-row md:items-center md:justify-between">
          <div className="max-w-xl">
            <h2 className="text-2xl font-bold tracking-tight sm:text-3xl">Your car could be earning while you don&apos;t need it</h2>
            <p className="mt-3 text-stone-300">
              List it on Karoo, set your own price and pickup spot, and approve every booking yourself.
            </p>
          </div>
          <ButtonLink to={PATHS.becomeHost} size="lg" variant="inverse">
            Start hosting
          </ButtonLink>
        </div>
      </section>
    </div>
  );
}
