// The Cars tab's car creator (document 3, "Admin car creator"), collapsed by default behind
// 'Open Car Creator'. Three modes: Quick Test Car (a preview of the pre-configured SUV and 'Create
// Test Car'), Custom Car (the form, Create disabled until Make, Model and Car Username are filled)
// and With Documents (where documents are uploaded). Every car is created for the owner named at
// the top (the signed-in admin unless changed) through POST /api/car/newCar/{owner}, and starts
// pending verification like any listing: it shows in the table below, where Verify stays disabled,
// saying what is missing, until the car has a photo and an approved registration document
// (decision 033: the creator makes up neither).
import { todayIn, validateCarListing, type NewCarBody } from '@karoo/shared';
import { clsx } from 'clsx';
import { CarFront, ChevronDown, ChevronUp, FileText, Sparkles, Wrench } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { formatRand } from '@/lib/format';
import { useSettings } from '@/lib/queries/settings';
import { useCreateCar } from '../api/admin-cars';
import {
  CAR_USERNAME_MESSAGE,
  CREATOR_CITIES,
  CREATOR_DOORS,
  CREATOR_FEATURES,
  CREATOR_FUELS,
  CREATOR_SEATS,
  CREATOR_TRANSMISSIONS,
  CREATOR_TYPES,
  customCarBody,
  customCarDefaults,
  isValidCarUsername,
  missingRequired,
  QUICK_TEST_CAR,
  quickTestCarBody,
  REQUIRED_FIELDS_MESSAGE,
  SIGNED_OUT_MESSAGE,
  type CustomCarForm,
} from './car-creator-form';

type Mode = 'quick' | 'custom' | 'documents';
const MODES: { id: Mode; label: string; icon: ReactNode }[] = [
  { id: 'quick', label: 'Quick Test Car', icon: <Sparkles className="size-4" aria-hidden="true" /> },
  { id: 'custom', label: 'Custom Car', icon: <Wrench className="size-4" aria-hidden="true" /> },
  { id: 'documents', label: 'With Documents', icon: <FileText className="size-4" aria-hidden="true" /> },
];

const selectClasses = 'h-[46px] w-full rounded-xl border border-stone-300 bg-white px-3 text-[15px] text-stone-900';

function Select({ label, value, onChange, options }: { label: string; value: string; onChange: (value: string) => void; options: readonly { value: string; label: string }[] }) {
  return (
    <label className="block text-sm">
      <span className="mb-1.5 block font-medium text-stone-700">{label}</span>
      <select className={selectClasses} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

const asOptions = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

export function CarCreator() {
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<Mode>('quick');
  const { user } = useAuth();
  const [owner, setOwner] = useState(user?.username ?? '');

  return (
    <Card aria-labelledby="car-creator-heading">
      <CardHeader
        icon={<CarFront className="size-5" aria-hidden="true" />}
        title={<span id="car-creator-heading">Car Creator</span>}
        description="Add a car to Karoo for a host or for testing. New cars wait for verification in the table below."
        actions={
          <Button variant="secondary" size="sm" aria-expanded={open} icon={open ? <ChevronUp className="size-4" aria-hidden="true" /> : <ChevronDown className="size-4" aria-hidden="true" />} onClick={() => setOpen((v) => !v)}>
            {open ? 'Close Car Creator' : 'Open Car Creator'}
          </Button>
        }
      />
      {open ? (
        <div className="space-y-5 px-5 py-5 sm:px-6">
          <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
            <div role="group" aria-label="Car creator mode" className="inline-flex flex-wrap gap-1 rounded-xl bg-stone-100 p-1">
              {MODES.map((item) => (
                <button
                  key={item.id}
                  type="button"
                  aria-pressed={mode === item.id}
                  onClick={() => setMode(item.id)}
                  className={clsx(
                    'inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
                    mode === item.id ? 'bg-white text-stone-900 shadow-sm' : 'text-stone-600 hover:text-stone-900',
                  )}
                >
                  {item.icon}
                  {item.label}
                </button>
              ))}
            </div>
            {mode !== 'documents' ? (
              <Input
                containerClassName="sm:w-64"
                label="Owner username"
                value={owner}
                onChange={(e) => setOwner(e.target.value)}
                hint="The car is listed on this account."
                autoComplete="off"
              />
            ) : null}
          </div>
          {mode === 'quick' ? <QuickTestCar owner={owner} /> : mode === 'custom' ? <CustomCar owner={owner} /> : <WithDocuments />}
        </div>
      ) : null}
    </Card>
  );
}

/** Sends one new car and tells the admin what happened; the client runs the platform's listing rules first. */
function useCreate() {
  const notify = useNotification();
  const { user } = useAuth();
  const settings = useSettings();
  const creation = useCreateCar();
  const create = async (owner: string, body: NewCarBody): Promise<boolean> => {
    if (!user) {
      notify.error('Not signed in', SIGNED_OUT_MESSAGE);
      return false;
    }
    const ownerName = owner.trim() || user.username;
    const failure = validateCarListing(
      {
        ...body,
        car_value: Number(body.car_value),
        car_rent_price: Number(body.car_rent_price),
        car_odometer: Number(body.car_odometer ?? 0),
        car_year: Number(body.car_year),
        seats: Number(body.specifications?.seats),
        doors: Number(body.specifications?.doors),
        photoCount: 0,
      },
      { minCarValue: settings.data?.minCarValue ?? 0, currentYear: Number(todayIn(new Date()).slice(0, 4)) },
    );
    if (failure) {
      notify.error(failure.title, failure.message);
      return false;
    }
    try {
      const car = await creation.mutateAsync({ owner: ownerName, body });
      notify.success(
        'Car created',
        `${car.car_username} for @${car.car_owner} is waiting for verification in the table below. It needs a photo and an approved registration document first.`,
      );
      return true;
    } catch (error) {
      notify.error('Car Creation Failed', messageOf(error, 'The car could not be created. Please try again.'));
      return false;
    }
  };
  return { create, isPending: creation.isPending };
}

function QuickTestCar({ owner }: { owner: string }) {
  const { create, isPending } = useCreate();
  const car = QUICK_TEST_CAR;
  const facts: [string, string][] = [
    ['Type', car.car_type],
    ['Transmission', car.transmission],
    ['Fuel', car.fuelType],
    ['Seats', String(car.seats)],
    ['Daily rate', formatRand(car.car_rent_price)],
    ['Value', formatRand(car.car_value)],
    ['Pickup', car.pickup_location],
    ['Plate', 'TEST and 6 characters'],
  ];
  return (
    <div className="grid gap-4 rounded-2xl border border-stone-200 bg-stone-50/60 p-4 sm:grid-cols-[1fr_auto] sm:items-center">
      <div>
        <p className="text-xs font-semibold tracking-wide text-brand-700 uppercase">Preview</p>
        <p className="mt-1 text-lg font-semibold text-stone-900">
          {car.car_year} {car.car_make} {car.car_model}
        </p>
        <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
          {facts.map(([label, value]) => (
            <div key={label}>
              <dt className="text-xs text-stone-500">{label}</dt>
              <dd className="font-medium text-stone-800">{value}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-3 text-xs text-stone-500">Features: {car.features.join(', ')}.</p>
        <p className="mt-1 text-xs text-stone-500">Created without photos or a registration document: it can be verified once it has both.</p>
      </div>
      <Button onClick={() => void create(owner, quickTestCarBody())} loading={isPending} icon={<Sparkles className="size-4" aria-hidden="true" />}>
        Create Test Car
      </Button>
    </div>
  );
}

function CustomCar({ owner }: { owner: string }) {
  const { create, isPending } = useCreate();
  const [form, setForm] = useState<CustomCarForm>(() => customCarDefaults(Number(todayIn(new Date()).slice(0, 4))));
  const [usernameError, setUsernameError] = useState<string | undefined>();
  const set = <K extends keyof CustomCarForm>(key: K) => (value: CustomCarForm[K]) => setForm((current) => ({ ...current, [key]: value }));
  const text = (key: Exclude<keyof CustomCarForm, 'features'>) => ({ value: form[key], onChange: (e: { target: { value: string } }) => set(key)(e.target.value) });
  const missing = missingRequired(form);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (missing) return;
    if (!isValidCarUsername(form.car_username)) {
      setUsernameError(CAR_USERNAME_MESSAGE);
      return;
    }
    setUsernameError(undefined);
    if (await create(owner, customCarBody(form))) setForm(customCarDefaults(Number(form.car_year) || Number(todayIn(new Date()).slice(0, 4))));
  };

  const toggleFeature = (feature: string) =>
    set('features')(form.features.includes(feature) ? form.features.filter((f) => f !== feature) : [...form.features, feature]);

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label="Custom Car">
      <div className="grid gap-4 sm:grid-cols-3">
        <Input label="Make *" {...text('car_make')} placeholder="Toyota" />
        <Input label="Model *" {...text('car_model')} placeholder="Corolla Cross" />
        <Input label="Car Username *" {...text('car_username')} placeholder="toyota-corolla-cross-jhb" error={usernameError} autoComplete="off" />
        <Input label="Year" inputMode="numeric" {...text('car_year')} />
        <Select label="Type" value={form.car_type} onChange={set('car_type')} options={CREATOR_TYPES} />
        <Input label="Colour" {...text('car_color')} />
        <Select label="Transmission" value={form.transmission} onChange={set('transmission')} options={asOptions(CREATOR_TRANSMISSIONS)} />
        <Select label="Fuel" value={form.fuelType} onChange={set('fuelType')} options={asOptions(CREATOR_FUELS)} />
        <Select label="Pickup city" value={form.pickup_location} onChange={set('pickup_location')} options={asOptions(CREATOR_CITIES)} />
        <Input label="Seats" type="number" min={CREATOR_SEATS.min} max={CREATOR_SEATS.max} {...text('seats')} />
        <Input label="Doors" type="number" min={CREATOR_DOORS.min} max={CREATOR_DOORS.max} {...text('doors')} />
        <Input label="Plate number" {...text('car_plate_number')} hint="Empty: a TEST plate is made." />
        <Input label="Daily rate (R)" inputMode="decimal" {...text('car_rent_price')} />
        <Input label="Vehicle value (R)" inputMode="decimal" {...text('car_value')} />
        <Input label="Fuel consumption (L/100 km)" inputMode="decimal" {...text('fuelConsumption')} />
        <Input label="Engine (L)" inputMode="decimal" {...text('engine')} />
      </div>
      <label className="block text-sm">
        <span className="mb-1.5 block font-medium text-stone-700">Description</span>
        <textarea
          className="block min-h-20 w-full rounded-xl border border-stone-300 px-3.5 py-2.5 text-[15px]"
          value={form.description}
          onChange={(e) => set('description')(e.target.value)}
          placeholder="Empty: “Make Model created with the admin car creator.”"
        />
      </label>
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-stone-700">Features</legend>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          {CREATOR_FEATURES.map((feature) => (
            <label key={feature} className="flex items-center gap-2 text-sm text-stone-700">
              <input type="checkbox" className="size-4 rounded border-stone-300 accent-brand-600" checked={form.features.includes(feature)} onChange={() => toggleFeature(feature)} />
              {feature}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className={clsx('text-sm', missing ? 'font-medium text-amber-700' : 'text-stone-500')} role={missing ? 'status' : undefined}>
          {missing ? REQUIRED_FIELDS_MESSAGE : 'Numbers that cannot be read count as 0; seats fall back to 5 and doors to 4.'}
        </p>
        <Button type="submit" disabled={missing} loading={isPending} icon={<CarFront className="size-4" aria-hidden="true" />}>
          Create Car
        </Button>
      </div>
    </form>
  );
}

function WithDocuments() {
  return (
    <Alert tone="info" title="Documents are added after the car exists">
      Create the car first (Quick Test Car or Custom Car). A car is verified only with at least one photo and an approved registration document. Its owner uploads
      the registration document from Host Dashboard, My Cars, Manage on that car (photos of a car already listed are added through the API, PUT
      /api/car/updateCar with images). The document then shows in this table's Registration documents column: approve it there, and the car's Verify button is
      enabled. Until then Verify stays disabled and says what is missing.
    </Alert>
  );
}
