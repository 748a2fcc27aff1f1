// Accessible tabs (WAI-ARIA tabs pattern): a tablist of buttons with aria-selected, roving focus,
// Left/Right/Home/End to move between tabs, and one labelled tabpanel.
import { clsx } from 'clsx';
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem<K extends string> {
  key: K;
  label: string;
  icon?: ReactNode;
}

export interface TabsProps<K extends string> {
  label: string;
  tabs: readonly TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
  children: ReactNode;
}

export function Tabs<K extends string>({ label, tabs, selected, onSelect, children }: TabsProps<K>) {
  const baseId = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const tabId = (key: K) => `${baseId}-tab-${key}`;
  const panelId = `${baseId}-panel`;

  const move = (event: KeyboardEvent, index: number) => {
    const last = tabs.length - 1;
    const next =
      event.key === 'ArrowRight' ? (index === last ? 0 : index + 1)
      : event.key === 'ArrowLeft' ? (index === 0 ? last : index - 1)
      : event.key === 'Home' ? 0
      : event.key === 'End' ? last
      : null;
    if (next === null) return;
    event.preventDefault();
    onSelect(tabs[next]!.key);
    buttons.current[next]?.focus();
  };

  return (
    <div>
      <div role="tablist" aria-label={label} className="flex gap-1 overflow-x-auto rounded-2xl border border-stone-200 bg-white p-1 shadow-sm">
        {tabs.map((tab, index) => {
          const isSelected = tab.key === selected;
          return (
            <button
              key={tab.key}
              ref={(el) => {
                buttons.current[index] = el;
              }}
              type="button"
              role="tab"
              id={tabId(tab.key)}
              aria-selected={isSelected}
              aria-controls={panelId}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(tab.key)}
              onKeyDown={(event) => move(event, index)}
              className={clsx(
                'inline-flex flex-1 items-center justify-center gap-2 rounded-xl px-4 py-2.5 text-sm font-semibold whitespace-nowrap transition-colors',
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
                isSelected ? 'bg-brand-600 text-white shadow-sm' : 'text-stone-600 hover:bg-stone-100 hover:text-stone-900',
              )}
            >
              {tab.icon}
              {tab.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(selected)} tabIndex={0} className="mt-6 focus-visible:outline-none">
        {children}
      </div>
    </div>
  );
}
