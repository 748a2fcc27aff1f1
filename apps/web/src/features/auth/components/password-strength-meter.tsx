// Five bars and a label (Very Weak to Strong) from the shared passwordStrength score.
import { passwordStrength, strengthLabel } from '@karoo/shared';
import { clsx } from 'clsx';

const COLOURS = ['bg-red-500', 'bg-red-500', 'bg-orange-500', 'bg-amber-500', 'bg-lime-500', 'bg-emerald-600'];
const TEXT = ['text-red-700', 'text-red-700', 'text-orange-700', 'text-amber-700', 'text-lime-700', 'text-emerald-700'];

export function PasswordStrengthMeter({ password }: { password: string }) {
  if (!password) return null;
  const score = passwordStrength(password);
  const label = strengthLabel(score);
  return (
    <div className="mt-2.5" data-testid="password-strength">
      <div className="flex gap-1.5" aria-hidden="true">
        {[1, 2, 3, 4, 5].map((bar) => (
          <span
            key={bar}
            data-filled={bar <= score}
            className={clsx('h-1.5 flex-1 rounded-full transition-colors', bar <= score ? COLOURS[score] : 'bg-stone-200')}
          />
        ))}
      </div>
      <p className="mt-1.5 text-xs text-stone-500" aria-live="polite">
        Password strength: <span className={clsx('font-semibold', TEXT[score])}>{label}</span>
      </p>
    </div>
  );
}
