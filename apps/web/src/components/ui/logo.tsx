import { clsx } from 'clsx';

/** The Karoo wordmark: a road over the horizon, then the name. */
export function Logo({ className, inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <span className={clsx('inline-flex items-center gap-2', className)}>
      <svg viewBox="0 0 64 64" className="size-8 shrink-0" aria-hidden="true">
        <rect width="64" height="64" rx="16" fill="#c2410c" />
        <path d="M14 40c6-12 14-18 24-18 6 0 10 2 12 4" fill="none" stroke="#fed7aa" strokeWidth="5" strokeLinecap="round" />
        <path d="M12 46h40" stroke="#fff" strokeWidth="5" strokeLinecap="round" />
      </svg>
      <span className={clsx('text-xl font-extrabold tracking-tight', inverted ? 'text-white' : 'text-stone-900')}>Karoo</span>
    </span>
  );
}
