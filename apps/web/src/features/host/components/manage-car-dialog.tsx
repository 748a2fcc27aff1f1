// 'Manage Details' of a fleet card: a panel with tabs (pickup locations, insurance plans, trip
// rules and discounts, instant booking, documents), keyboard-navigable as a WAI-ARIA tab list.
import { carName, type Car } from '@karoo/shared';
import { clsx } from 'clsx';
import { CalendarDays, CalendarClock, FileText, MapPin, ShieldCheck, Zap } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { CarCalendarPanel } from './car-calendar-panel';
import { InstantBookingEditor } from './instant-booking-editor';
import { InsuranceOptionsEditor } from './insurance-options-editor';
import { PickupOptionsEditor } from './pickup-options-editor';
import { RegistrationDocumentPanel } from './registration-document-panel';
import { TripRulesEditor } from './trip-rules-editor';
import { TripTermsEditor } from './trip-terms-editor';

export type ManageTab = 'pickup' | 'insurance' | 'calendar' | 'rules' | 'instant' | 'terms' | 'documents';

const TABS: { id: ManageTab; label: string; short: string; icon: ReactNode }[] = [
  { id: 'pickup', label: 'Pickup Locations', short: 'Pickup', icon: <MapPin className="size-4" aria-hidden="true" /> },
  { id: 'insurance', label: 'Insurance Plans', short: 'Insurance', icon: <ShieldCheck className="size-4" aria-hidden="true" /> },
  { id: 'calendar', label: 'Calendar', short: 'Calendar', icon: <CalendarDays className="size-4" aria-hidden="true" /> },
  { id: 'rules', label: 'Trip Rules and Discounts', short: 'Rules', icon: <CalendarClock className="size-4" aria-hidden="true" /> },
  { id: 'instant', label: 'Instant Booking', short: 'Instant', icon: <Zap className="size-4" aria-hidden="true" /> },
  { id: 'terms', label: 'Deposit and Distance', short: 'Deposit', icon: <ShieldCheck className="size-4" aria-hidden="true" /> },
  { id: 'documents', label: 'Documents', short: 'Documents', icon: <FileText className="size-4" aria-hidden="true" /> },
];

export interface ManageCarDialogProps {
  car: Car | null;
  username: string;
  onClose: () => void;
}

export function ManageCarDialog({ car, username, onClose }: ManageCarDialogProps) {
  return (
    <Dialog
      open={!!car}
      onClose={onClose}
      title={car ? `Manage ${carName(car)}` : 'Manage Details'}
      description={car ? `${car.car_plate_number} · ${car.pickup_location}` : undefined}
      className="sm:max-w-3xl"
    >
      {car ? <ManageCarTabs key={car.id} car={car} username={username} /> : null}
    </Dialog>
  );
}

function ManageCarTabs({ car, username }: { car: Car; username: string }) {
  const baseId = useId();
  const [tab, setTab] = useState<ManageTab>('pickup');
  const tabRefs = useRef<Partial<Record<ManageTab, HTMLButtonElement | null>>>({});

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TABS.findIndex((t) => t.id === tab);
    let next = index;
    if (event.key === 'ArrowRight') next = (index + 1) % TABS.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + TABS.length) % TABS.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = TABS.length - 1;
    else return;
    event.preventDefault();
    const target = TABS[next]!.id;
    setTab(target);
    tabRefs.current[target]?.focus();
  };

  return (
    <div className="-mx-6 -mb-4">
      <div role="tablist" aria-label="Car details" onKeyDown={onKeyDown} className="flex gap-1 overflow-x-auto border-b border-stone-200 px-4 sm:px-6">
        {TABS.map((item) => {
          const selected = item.id === tab;
          return (
            <button
              key={item.id}
              ref={(node) => {
                tabRefs.current[item.id] = node;
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${item.id}`}
              aria-label={item.label}
              aria-selected={selected}
              aria-controls={`${baseId}-panel-${item.id}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => setTab(item.id)}
              className={clsx(
                '-mb-px inline-flex shrink-0 items-center gap-2 border-b-2 px-2.5 py-3 text-sm font-semibold whitespace-nowrap transition-colors sm:px-3',
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-inset',
                selected ? 'border-brand-600 text-brand-700' : 'border-transparent text-stone-500 hover:text-stone-800',
              )}
            >
              <span className="hidden sm:inline-flex">{item.icon}</span>
              <span className="sm:hidden">{item.short}</span>
              <span className="hidden sm:inline">{item.label}</span>
            </button>
          );
        })}
      </div>
      {/* Every panel stays mounted, so unsaved edits survive a switch of tab. */}
      {TABS.map((item) => (
        <div
          key={item.id}
          role="tabpanel"
          id={`${baseId}-panel-${item.id}`}
          aria-labelledby={`${baseId}-tab-${item.id}`}
          hidden={item.id !== tab}
          tabIndex={0}
          className="max-h-[min(65dvh,640px)] overflow-y-auto px-4 pt-4 focus-visible:outline-none sm:px-6"
        >
          {item.id === 'pickup' ? <PickupOptionsEditor car={car} username={username} /> : null}
          {item.id === 'insurance' ? <InsuranceOptionsEditor car={car} username={username} /> : null}
          {item.id === 'calendar' ? <CarCalendarPanel car={car} /> : null}
          {item.id === 'rules' ? <TripRulesEditor car={car} username={username} /> : null}
          {item.id === 'instant' ? <InstantBookingEditor car={car} username={username} /> : null}
          {item.id === 'terms' ? <TripTermsEditor car={car} username={username} /> : null}
          {item.id === 'documents' ? <RegistrationDocumentPanel car={car} /> : null}
        </div>
      ))}
    </div>
  );
}
