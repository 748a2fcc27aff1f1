// The wizard's progress indicator: three numbered steps, done ones ticked, the current one marked
// for assistive technology with aria-current="step".
import { clsx } from 'clsx';
import { Check } from 'lucide-react';
import { WIZARD_STEPS, type WizardStep } from '../utils/wizard-draft';

export function WizardProgress({ step }: { step: WizardStep }) {
  const percent = ((step - 1) / (WIZARD_STEPS.length - 1)) * 100;
  return (
    <nav aria-label="Listing progress">
      <p className="mb-3 text-xs font-semibold tracking-wide text-stone-500 uppercase sm:hidden">
        Step {step} of {WIZARD_STEPS.length}: {WIZARD_STEPS[step - 1]!.title}
      </p>
      <div className="mb-4 h-1.5 overflow-hidden rounded-full bg-stone-200 sm:hidden" aria-hidden="true">
        <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${Math.max(percent, 8)}%` }} />
      </div>
      <ol className="hidden items-center sm:flex">
        {WIZARD_STEPS.map((item, index) => {
          const done = item.step < step;
          const current = item.step === step;
          return (
            <li key={item.step} className={clsx('flex items-center', index < WIZARD_STEPS.length - 1 && 'flex-1')} aria-current={current ? 'step' : undefined}>
              <span
                className={clsx(
                  'flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-bold ring-2',
                  done && 'bg-brand-600 text-white ring-brand-600',
                  current && 'bg-white text-brand-700 ring-brand-600',
                  !done && !current && 'bg-white text-stone-500 ring-stone-200',
                )}
              >
                {done ? <Check className="size-4" aria-hidden="true" /> : item.step}
              </span>
              <span className="ml-3 min-w-0">
                <span className={clsx('block text-sm font-semibold', current || done ? 'text-stone-900' : 'text-stone-500')}>
                  {item.title}
                  {done ? <span className="sr-only"> (completed)</span> : null}
                </span>
                <span className="hidden text-xs text-stone-500 lg:block">{item.description}</span>
              </span>
              {index < WIZARD_STEPS.length - 1 ? (
                <span aria-hidden="true" className={clsx('mx-4 h-0.5 flex-1 rounded-full', done ? 'bg-brand-600' : 'bg-stone-200')} />
              ) : null}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
