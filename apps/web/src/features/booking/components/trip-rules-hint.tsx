// Under the booking panel's dates and times: the car's trip rules that narrow the choice and its
// long-trip discounts (decision 048), and, when the chosen time breaks one, the rule's words (the
// server's message). Nothing when the car keeps the defaults.
import { describeDiscounts, type TripRules } from '@karoo/shared';
import { panelRuleHints } from '../utils/trip-rules';

export interface TripRulesHintProps {
  rules: TripRules;
  isHourly: boolean;
  /** The chosen pickup time is too soon: the notice rule's message. */
  pickupRefusal: string | null;
  /** The chosen hourly return gives a trip the car does not take ("under 2 hours"). */
  returnRefusal: string | null;
}

export function TripRulesHint({ rules, isHourly, pickupRefusal, returnRefusal }: TripRulesHintProps) {
  const hints = panelRuleHints(rules, isHourly);
  const discounts = isHourly ? [] : describeDiscounts(rules);
  if (hints.length === 0 && discounts.length === 0 && !pickupRefusal && !returnRefusal) return null;
  return (
    <div className="mt-2 space-y-1 text-xs" data-testid="trip-rules-hint">
      {hints.length ? <p className="text-stone-600">{hints.join(' · ')}</p> : null}
      {discounts.length ? <p className="font-semibold text-emerald-800">{discounts.join(' · ')}</p> : null}
      {pickupRefusal ? (
        <p className="text-red-700" role="status">
          {pickupRefusal} Choose a later pickup time or day.
        </p>
      ) : null}
      {returnRefusal ? (
        <p className="text-red-700" role="status">
          {isHourly ? `A return at that time makes a trip ${returnRefusal}; ` : ''}
          {rules.max_hours < 24 || rules.min_hours > 1 ? `this car takes hourly trips of ${rules.min_hours} to ${rules.max_hours} hours.` : ''}
        </p>
      ) : null}
    </div>
  );
}
