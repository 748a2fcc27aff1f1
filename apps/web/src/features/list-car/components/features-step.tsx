// Wizard step 2, Features & Submit: features and safety features, house rules (added one at a
// time; blank entries are ignored) and the description renters read.
import { CAR_FEATURES, SAFETY_FEATURES } from '@karoo/shared';
import { Plus, X } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { inputClasses } from '@/components/ui/input';
import { ruleToAdd, type WizardDraft } from '../utils/wizard-draft';
import { TextAreaField } from './fields';

export interface FeaturesStepProps {
  draft: WizardDraft;
  onChange: (draft: WizardDraft) => void;
  descriptionError?: string;
}

function toggle(list: readonly string[], item: string, on: boolean): string[] {
  return on ? [...list.filter((i) => i !== item), item] : list.filter((i) => i !== item);
}

function CheckboxGroup({ legend, items, selected, onToggle }: { legend: string; items: readonly string[]; selected: readonly string[]; onToggle: (item: string, on: boolean) => void }) {
  return (
    <fieldset>
      <legend className="text-base font-semibold text-stone-900">
        {legend} <span className="text-sm font-normal text-stone-500">({selected.length} selected)</span>
      </legend>
      <div className="mt-3 grid grid-cols-1 gap-x-4 gap-y-2.5 min-[420px]:grid-cols-2 lg:grid-cols-3">
        {items.map((item) => (
          <Checkbox key={item} label={item} checked={selected.includes(item)} onChange={(event) => onToggle(item, event.target.checked)} />
        ))}
      </div>
    </fieldset>
  );
}

export function FeaturesStep({ draft, onChange, descriptionError }: FeaturesStepProps) {
  const ruleId = useId();
  const [rule, setRule] = useState('');
  const set = <K extends keyof WizardDraft>(key: K, value: WizardDraft[K]) => onChange({ ...draft, [key]: value });

  const addRule = () => {
    const next = ruleToAdd(rule, draft.rules);
    if (next) set('rules', [...draft.rules, next]);
    setRule('');
  };

  const onRuleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the rule here instead of submitting the listing.
    if (event.key === 'Enter') {
      event.preventDefault();
      event.stopPropagation();
      addRule();
    }
  };

  return (
    <div className="space-y-8">
      <CheckboxGroup legend="Features" items={CAR_FEATURES} selected={draft.features} onToggle={(item, on) => set('features', toggle(draft.features, item, on))} />
      <div className="border-t border-stone-100 pt-6">
        <CheckboxGroup legend="Safety features" items={SAFETY_FEATURES} selected={draft.safety} onToggle={(item, on) => set('safety', toggle(draft.safety, item, on))} />
      </div>

      <div className="border-t border-stone-100 pt-6">
        <fieldset>
          <legend className="text-base font-semibold text-stone-900">House rules</legend>
          <p className="mt-0.5 text-sm text-stone-500">For example: no smoking, no pets, return with a full tank.</p>
          <div className="mt-3 flex gap-2">
            <label htmlFor={ruleId} className="sr-only">
              Add a rule
            </label>
            <input
              id={ruleId}
              value={rule}
              maxLength={200}
              placeholder="Type a rule"
              onChange={(event) => setRule(event.target.value)}
              onKeyDown={onRuleKeyDown}
              className={`${inputClasses} border-stone-300`}
            />
            <Button variant="secondary" icon={<Plus className="size-4" aria-hidden="true" />} onClick={addRule} className="shrink-0">
              Add
            </Button>
          </div>
          {draft.rules.length ? (
            <ul className="mt-3 flex flex-wrap gap-2" aria-label="House rules">
              {draft.rules.map((item) => (
                <li key={item} className="inline-flex max-w-full items-center gap-1 rounded-full bg-stone-100 py-1 pr-1 pl-3 text-sm text-stone-800">
                  <span className="truncate">{item}</span>
                  <button
                    type="button"
                    onClick={() => set('rules', draft.rules.filter((r) => r !== item))}
                    aria-label={`Remove rule: ${item}`}
                    className="shrink-0 rounded-full p-0.5 text-stone-400 hover:bg-stone-200 hover:text-stone-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
                  >
                    <X className="size-3.5" aria-hidden="true" />
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </fieldset>
      </div>

      <div className="border-t border-stone-100 pt-6">
        <TextAreaField
          label="Description"
          required
          rows={5}
          maxLength={4000}
          value={draft.description}
          error={descriptionError}
          placeholder="What makes your car great for a trip? Mention its condition, what is included and anything renters should know."
          hint={`${draft.description.trim().length} characters`}
          onChange={(event) => set('description', event.target.value)}
        />
      </div>
    </div>
  );
}
