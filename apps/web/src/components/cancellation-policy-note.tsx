// The cancellation policy as one short note with its heading, wherever a renter decides or looks
// back: the car page, the booking request, checkout, My Bookings. The words come from
// lib/cancellation-policy.ts; this only lays them out, with the Consumer Protection Act s. 17 rule
// under them (no fee kept for a death or a hospital admission; decisions 067 and 074).
import { CPA_WAIVER_POLICY } from '@karoo/shared';
import { clsx } from 'clsx';
import { CalendarCheck } from 'lucide-react';

export function CancellationPolicyNote({ text, className }: { text: string; className?: string }) {
  return (
    <section aria-label="Cancellation policy" data-testid="cancellation-policy" className={clsx('flex gap-2.5 text-sm text-stone-600', className)}>
      <CalendarCheck className="mt-0.5 size-4 shrink-0 text-emerald-700" aria-hidden="true" />
      <div className="min-w-0">
        <p className="font-semibold text-stone-900">Cancellation policy</p>
        <p className="mt-0.5" data-testid="cancellation-policy-rule">
          {text}
        </p>
        <p className="mt-1 text-xs" data-testid="cpa-waiver-policy">
          {CPA_WAIVER_POLICY}
        </p>
      </div>
    </section>
  );
}
