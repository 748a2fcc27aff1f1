// The booking panel of the detail page (document 2 sections 2, 5 and 9): daily or hourly, quick
// dates, calendars that know the car's held dates, times, pickup location, insurance, the live
// price (the shared calculatePrice), and Book Now. Submit runs the shared validateBookingRequest
// (the server's checks, in order, with its words), asks for confirmation, then sends the request;
// the server computes the price it stores. The cancellation policy shows under the price: in
// general words until dates are picked, then with the trip's own dates and fee.
import {
  addDays,
  calculatePrice,
  claimWindowClosesAt,
  depositLine,
  localInstant,
  DEFAULT_SETTINGS,
  defaultPickupTime,
  hourlyRateOf,
  isAdmin,
  pickupTimeRefusal,
  pickupTimesOf,
  spanOfHold,
  todayIn,
  tripRuleFailure,
  validateBookingRequest,
  type Booking,
  type Car,
  type PickupOption,
  type PriceBreakdown as Breakdown,
} from '@karoo/shared';
import { clsx } from 'clsx';
import { LogIn, ShieldAlert, Star, Zap } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { CancellationPolicyNote } from '@/components/cancellation-policy-note';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useNotification } from '@/components/ui/toast';
import { isApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { bookedTripPolicy, GENERAL_CANCELLATION_POLICY } from '@/lib/cancellation-policy';
import { formatRand } from '@/lib/format';
import { useInstantBookingAllowed, useSettings } from '@/lib/queries/settings';
import { PATHS, type LoginLocationState } from '@/lib/routes';
import { readTripDates, withTripDates } from '@/lib/trip-dates';
import { useCreateBooking } from '../api/create-booking';
import { useCarAvailability } from '../api/get-car-availability';
import { useInstantEligibility } from '../api/get-instant-eligibility';
import { formatDayShort, QUICK_SELECTS, quickSelectChoice, takenTimes, type BookingMode, type QuickSelect } from '../utils/booking-dates';
import { BLOCKER_HINTS, bookingFormFromTrip, bookingLength, submitBlocker, TIME_SLOTS, toCreateBookingBody, tripOfForm, type BookingFormState } from '../utils/booking-form';
import { BookingConfirmationModal, ConfirmBookingDialog } from './booking-dialogs';
import { DatePicker } from './date-picker';
import { InsuranceOptionsList, PickupOptionsList } from './booking-options';
import { PriceBreakdown } from './price-breakdown';
import {
  firstPickupTimeMeetingNotice,
  pickupDayRefusal,
  quickRangeRefusal,
  refusedPickupTimes,
  refusedReturnTimes,
  returnDayRefusal,
  tripRulesOfCar,
} from '../utils/trip-rules';
import { TripRulesHint } from './trip-rules-hint';

export const BOOKING_FAILED_MESSAGE = 'There was an error processing your booking. Please try again.';
/** The return calendar opens this long after a pickup date is chosen while the return is empty. */
export const RETURN_PICKER_DELAY_MS = 200;
const BOOKING_TOAST_MS = 6000;

function defaultInsurance(car: Car): string | null {
  return car.insurance_options.find((option) => option.included)?.id ?? null;
}

/** The policy for the picked trip, read as paid now; the general words until there is one. */
function panelCancellationPolicy(form: BookingFormState, price: Breakdown | null, now: Date): string {
  if (!price || !form.startDate) return GENERAL_CANCELLATION_POLICY;
  const trip = { isHourly: price.isHourly, durationDays: price.days, subtotalCents: price.cents.subtotal, startDate: form.startDate, startTime: form.startTime };
  return bookedTripPolicy(trip, now) ?? GENERAL_CANCELLATION_POLICY;
}

export interface BookingPanelProps {
  car: Car;
  carName: string;
  /** Pays a booking confirmed at once (the payments feature's checkout, which the route supplies). */
  onPay?: (booking: Booking) => void;
}

export function BookingPanel({ car, carName, onPay }: BookingPanelProps) {
  const { user } = useAuth();
  const location = useLocation();
  const notify = useNotification();
  const today = useMemo(() => todayIn(), []);
  const availability = useCarAvailability(car.car_username);
  const settingsQuery = useSettings();
  const createBooking = useCreateBooking(car.car_username);
  const [searchParams, setSearchParams] = useSearchParams();
  // The trip the address names (the dates chosen on /cars, carried by the card's link) is the start.
  const [form, setForm] = useState<BookingFormState>(() => {
    const fromTrip = bookingFormFromTrip(readTripDates(searchParams, today));
    const pickup = car.pickup_options[0];
    const pickupTimes = pickupTimesOf(pickup);
    return {
      ...fromTrip,
      // The first pickup location's own time when it does not hand over at the trip's (decision 059).
      startTime: !pickupTimes || pickupTimes.includes(fromTrip.startTime) ? fromTrip.startTime : defaultPickupTime(pickup),
      pickupOptionId: pickup?.id ?? null,
      insuranceOptionId: defaultInsurance(car),
    };
  });
  const [openPicker, setOpenPicker] = useState<'start' | 'end' | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [booking, setBooking] = useState<Booking | null>(null);
  /** Why the last quick-select took another date than its usual one. */
  const [quickNote, setQuickNote] = useState<string | null>(null);
  const returnTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(returnTimer.current), []);

  // The address follows the chosen trip, replacing its entry (no history entry per click), so a
  // reload or a shared link opens the panel on the same dates.
  const trip = tripOfForm(form);
  const tripQuery = withTripDates(searchParams, trip).toString();
  useEffect(() => {
    if (tripQuery !== searchParams.toString()) setSearchParams(new URLSearchParams(tripQuery), { replace: true, preventScrollReset: true });
  }, [tripQuery, searchParams, setSearchParams]);

  const held = useMemo(() => availability.data ?? [], [availability.data]);
  const bufferMinutes = car.buffer_minutes ?? 0;
  // Times that would meet a trip or a block (the server refuses them): marked taken in the lists.
  const tripSoFar = { startDate: form.startDate, endDate: form.endDate, startTime: form.startTime, isHourly: form.mode === 'hourly', bufferMinutes };
  const pickup = car.pickup_options.find((option) => option.id === form.pickupOptionId) ?? null;
  // The chosen location's listed times are the only pickup times (the server refuses others; decision 059).
  const pickupSlots = pickupTimesOf(pickup) ?? TIME_SLOTS;
  const takenPickup = takenTimes(pickupSlots, 'pickup', tripSoFar, held);
  const takenReturn = takenTimes(TIME_SLOTS, 'return', tripSoFar, held);
  const settings = settingsQuery.data ?? (settingsQuery.isError ? DEFAULT_SETTINGS : null);
  const isHourly = form.mode === 'hourly';
  const length = bookingLength(form);
  const insurance = car.insurance_options.find((option) => option.id === form.insuranceOptionId) ?? null;
  // The car's trip rules (decision 048): the days and times they refuse are greyed with the rule.
  const tripRules = tripRulesOfCar(car);
  const now = new Date();
  const refusePickupDay = pickupDayRefusal(tripRules, now, today, form.startTime);
  const refuseReturnDay = returnDayRefusal(tripRules, today, form.startDate, isHourly);
  const refusedPickup = refusedPickupTimes(tripRules, now, form.startDate, pickupSlots);
  const refusedReturn = isHourly ? refusedReturnTimes(tripRules, form, TIME_SLOTS) : new Map<string, string>();
  const price =
    length && settings
      ? calculatePrice({
          dailyPrice: car.car_rent_price,
          isHourly,
          days: length.days,
          hours: length.hours,
          pickupFee: pickup?.additional_fee ?? 0,
          insuranceDailyRate: insurance?.daily_rate ?? 0,
          settings,
          discounts: tripRules,
        })
      : null;

  const policy = panelCancellationPolicy(form, price, new Date());

  const isOwnCar = !!user && user.username.toLowerCase() === car.car_owner.toLowerCase();
  const isVerified = user?.verification_status === 'verified';
  // The car's instant booking under the platform's switch (decision 078); asked for the renter only when it can apply.
  const offersInstant = useInstantBookingAllowed() && !!car.instant_booking?.enabled;
  const eligibility = useInstantEligibility(car.car_username, offersInstant && !!user && !isOwnCar);
  const instantForYou = offersInstant && eligibility.data?.instant === true;
  const blocker = submitBlocker(form, createBooking.isPending);
  const loginState: LoginLocationState = { from: { pathname: location.pathname, search: location.search, hash: location.hash } };

  // Each quick-select's dates given the held ones and the car's trip rules: its usual dates, the
  // first free ones of its kind the rules allow, or disabled with the reason (the rule's words when
  // a rule refuses it, e.g. Today under a day's notice, as the server would answer).
  const refuseQuick = quickRangeRefusal(tripRules, isHourly, now, today, TIME_SLOTS);
  const quickChoices = QUICK_SELECTS[form.mode].map((quick) => ({ ...quick, choice: quickSelectChoice(quick.id, form.mode, today, held, bufferMinutes, refuseQuick) }));

  const setMode = (mode: BookingMode) => {
    if (mode === form.mode) return;
    setOpenPicker(null);
    setQuickNote(null);
    // Hourly rentals start and end today until the renter picks another day.
    setForm((f) => (mode === 'hourly' ? { ...f, mode, startDate: today, endDate: today } : { ...f, mode }));
  };

  const chooseQuick = (label: string, kind: QuickSelect) => {
    const { range, movedFrom } = quickSelectChoice(kind, form.mode, today, held, bufferMinutes, refuseQuick);
    if (!range) return;
    setOpenPicker(null);
    setQuickNote(movedFrom ? `${label}: ${formatDayShort(movedFrom)} is taken, so the first free date, ${formatDayShort(range.start_date)}, is chosen.` : null);
    // A pickup time too soon for the notice moves to the first one that meets it.
    const startTime = firstPickupTimeMeetingNotice(tripRules, new Date(), range.start_date, form.startTime, TIME_SLOTS);
    setForm((f) => ({ ...f, startDate: range.start_date, endDate: range.end_date, startTime }));
  };

  const chooseStart = (date: string) => {
    setQuickNote(null);
    let endDate = form.endDate;
    if (isHourly) endDate = endDate === date || endDate === addDays(date, 1) ? endDate : date;
    else if (endDate && endDate < date) endDate = '';
    setForm((f) => ({ ...f, startDate: date, endDate }));
    clearTimeout(returnTimer.current);
    if (!endDate) returnTimer.current = setTimeout(() => setOpenPicker('end'), RETURN_PICKER_DELAY_MS);
  };

  /** Another pickup location: its times, keeping the chosen one where it hands over then too. */
  const choosePickup = (pickupOptionId: string) => {
    const option: PickupOption | undefined = car.pickup_options.find((o) => o.id === pickupOptionId);
    setForm((f) => ({ ...f, pickupOptionId, startTime: pickupTimeRefusal(option, f.startTime) ? defaultPickupTime(option) : f.startTime }));
  };

  const submit = () => {
    if (blocker) return;
    const timeRefusal = pickupTimeRefusal(pickup, form.startTime);
    if (timeRefusal) {
      notify.error('Pickup Time Not Offered', timeRefusal);
      return;
    }
    const failure = validateBookingRequest({
      start_date: form.startDate,
      end_date: form.endDate,
      start_time: form.startTime,
      end_time: form.endTime,
      is_hourly_booking: isHourly,
      blockedRanges: held.map(spanOfHold),
      bufferMinutes,
      isOwnCar,
      isVerified,
      today: todayIn(),
      maxRentalDays: settings?.maxRentalDays,
    });
    if (failure) {
      notify.error(failure.title, failure.message);
      return;
    }
    const ruleFailure = tripRuleFailure(
      tripRules,
      { start_date: form.startDate, end_date: form.endDate, start_time: form.startTime, end_time: form.endTime, is_hourly_booking: isHourly },
      new Date(),
      todayIn(),
    );
    if (ruleFailure) {
      notify.error(ruleFailure.title, ruleFailure.message);
      return;
    }
    setConfirmOpen(true);
  };

  const send = (specialRequirements: string) => {
    createBooking.mutate(toCreateBookingBody(car.car_username, form, specialRequirements), {
      onSuccess: (result) => {
        const kind = result.data.is_hourly_booking ? 'Hourly' : 'Daily';
        setConfirmOpen(false);
        notify.success(
          `${kind} Booking Request Sent!`,
          result.data.status === 'confirmed' ? `Your ${carName} is confirmed. Pay from My Bookings to secure it.` : `Your request for the ${carName} was sent to the host.`,
          BOOKING_TOAST_MS,
        );
        setBooking(result.data);
        setQuickNote(null);
        setForm((f) => ({ ...f, startDate: '', endDate: '' }));
      },
      onError: (error) => {
        // The dialog stays open (no longer loading) so the renter can change course.
        console.error('Booking request failed', error);
        const message = (isApiError(error) || error instanceof Error) && error.message ? error.message : BOOKING_FAILED_MESSAGE;
        notify.error('Booking Failed', message, BOOKING_TOAST_MS);
      },
    });
  };

  return (
    <section aria-labelledby="booking-heading" className="rounded-2xl border border-stone-200 bg-white p-5 shadow-pop sm:p-6">
      <div className="flex items-end justify-between gap-3">
        <div>
          <h2 id="booking-heading" className="sr-only">
            Book this vehicle
          </h2>
          <p>
            <span className="text-2xl font-bold text-stone-900">{formatRand(isHourly ? hourlyRateOf(car.car_rent_price) : car.car_rent_price)}</span>
            <span className="text-stone-500"> / {isHourly ? 'hour' : 'day'}</span>
          </p>
          <p className="text-xs text-stone-500">
            {isHourly ? `${formatRand(car.car_rent_price)} / day` : `${formatRand(hourlyRateOf(car.car_rent_price))} / hour when booked hourly`}
          </p>
        </div>
        {car.rating ? (
          <p className="flex items-center gap-1 text-sm font-semibold text-stone-800">
            <Star className="size-4 fill-amber-400 text-amber-400" aria-hidden="true" /> {car.rating.toFixed(1)}
          </p>
        ) : null}
      </div>

      <div role="group" aria-label="Booking type" className="mt-5 grid grid-cols-2 rounded-xl bg-stone-100 p-1">
        {(['daily', 'hourly'] as const).map((mode) => (
          <button
            key={mode}
            type="button"
            aria-pressed={form.mode === mode}
            onClick={() => setMode(mode)}
            className={clsx(
              'rounded-lg py-2 text-sm font-semibold transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
              form.mode === mode ? 'bg-white text-stone-900 shadow-sm' : 'text-stone-600 hover:text-stone-900',
            )}
          >
            {mode === 'daily' ? 'Daily' : 'Hourly'}
          </button>
        ))}
      </div>

      <div className="mt-4 flex flex-wrap gap-2" role="group" aria-label="Quick dates">
        {quickChoices.map(({ id, label, choice }) => (
          <button
            key={id}
            type="button"
            disabled={!choice.range}
            title={choice.reason ?? (choice.movedFrom && choice.range ? `${formatDayShort(choice.movedFrom)} is taken; first free: ${formatDayShort(choice.range.start_date)}` : undefined)}
            aria-describedby={choice.reason ? `quick-${id}-reason` : undefined}
            onClick={() => chooseQuick(label, id)}
            className="rounded-full border border-stone-300 px-3 py-1 text-xs font-semibold text-stone-700 transition hover:border-stone-900 hover:text-stone-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:cursor-not-allowed disabled:border-stone-200 disabled:text-stone-400 disabled:line-through"
          >
            {label}
          </button>
        ))}
        {quickChoices.map(({ id, choice }) =>
          choice.reason ? (
            <span key={id} id={`quick-${id}-reason`} className="sr-only">
              {choice.reason}
            </span>
          ) : null,
        )}
      </div>
      <p className="mt-2 text-xs text-stone-600 empty:mt-0" aria-live="polite" data-testid="quick-note">
        {quickNote}
      </p>

      <div className="mt-4 grid grid-cols-2 gap-2">
        <DatePicker
          label="Pickup date"
          value={form.startDate}
          onSelect={chooseStart}
          rules={{ today, availability: held, refuse: refusePickupDay }}
          open={openPicker === 'start'}
          onOpenChange={(open) => setOpenPicker(open ? 'start' : null)}
          range={{ start: form.startDate, end: form.endDate }}
        />
        <DatePicker
          label="Return date"
          value={form.endDate}
          onSelect={(date) => setForm((f) => ({ ...f, endDate: date }))}
          rules={{
            today,
            availability: held,
            minDate: form.startDate || today,
            maxDate: isHourly && form.startDate ? addDays(form.startDate, 1) : undefined,
            trip: form.startDate ? { startDate: form.startDate, startTime: form.startTime, endTime: form.endTime, isHourly, bufferMinutes } : undefined,
            refuse: refuseReturnDay,
          }}
          disabled={!form.startDate}
          open={openPicker === 'end'}
          onOpenChange={(open) => setOpenPicker(open ? 'end' : null)}
          range={{ start: form.startDate, end: form.endDate }}
          align="right"
        />
        <TimeSelect label="Pickup time" slots={pickupSlots} value={form.startTime} taken={takenPickup} refused={refusedPickup} onChange={(startTime) => setForm((f) => ({ ...f, startTime }))} />
        <TimeSelect label="Return time" slots={TIME_SLOTS} value={form.endTime} taken={takenReturn} refused={refusedReturn} onChange={(endTime) => setForm((f) => ({ ...f, endTime }))} />
      </div>
      <TripRulesHint rules={tripRules} isHourly={isHourly} pickupRefusal={refusedPickup.has(form.startTime) ? refusePickupDay(form.startDate) : null} returnRefusal={refusedReturn.get(form.endTime) ?? null} />
      {availability.isError ? <p className="mt-2 text-xs text-amber-700">Booked dates could not be loaded; the host will confirm availability.</p> : null}
      {takenPickup.has(form.startTime) || takenReturn.has(form.endTime) ? (
        <p className="mt-2 text-xs text-red-700" role="status">
          {takenPickup.has(form.startTime) ? `The car is taken at ${form.startTime} on ${formatDayShort(form.startDate)}.` : `A return at ${form.endTime} would run into another trip or a time the host blocked.`}{' '}
          Times marked “taken” in the lists are not free{bufferMinutes ? `; the host keeps ${bufferMinutes} minutes free after every trip` : ''}.
        </p>
      ) : null}

      <div className="mt-5 space-y-5">
        <PickupOptionsList options={car.pickup_options} areaOnly={!car.exact_place} value={form.pickupOptionId} onChange={choosePickup} />
        <InsuranceOptionsList options={car.insurance_options} value={form.insuranceOptionId} onChange={(insuranceOptionId) => setForm((f) => ({ ...f, insuranceOptionId }))} />
      </div>

      {price ? (
        <div className="mt-5 border-t border-stone-200 pt-4">
          <PriceBreakdown
            price={price}
            deposit={
              car.deposit > 0 && settings
                ? { amount: car.deposit, line: depositLine(car.deposit * 100, claimWindowClosesAt(localInstant(form.endDate, form.endTime), settings.trip_charges.claim_window_hours)) }
                : null
            }
          />
        </div>
      ) : null}
      <CancellationPolicyNote text={policy} className="mt-4 rounded-xl bg-stone-50 p-3" />

      <div className="mt-5 space-y-3">
        {!user ? (
          <Alert tone="info" title="Please log in to book this vehicle">
            <Link to={PATHS.login} state={loginState} className="inline-flex items-center gap-1 font-semibold text-sky-800 underline underline-offset-2">
              <LogIn className="size-4" aria-hidden="true" /> Log In
            </Link>
          </Alert>
        ) : (
          <>
            {isOwnCar ? (
              <Alert tone="info" title="This is your car">
                You cannot book your own car. Manage it from your host dashboard.
              </Alert>
            ) : !isVerified && !isAdmin(user) ? (
              <Alert tone="warning" title="Verification Required">
                <p>Your account must be verified before you can book.</p>
                <Link to={PATHS.profile} className="mt-1 inline-flex items-center gap-1 font-semibold text-amber-900 underline underline-offset-2">
                  <ShieldAlert className="size-4" aria-hidden="true" /> Complete Verification
                </Link>
              </Alert>
            ) : null}
            {offersInstant && !isOwnCar && eligibility.data ? (
              eligibility.data.instant ? (
                <p className="flex items-start gap-2 rounded-xl bg-emerald-50 p-3 text-sm text-emerald-900" data-testid="instant-eligibility">
                  <Zap className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                  <span>
                    <strong>Instant booking.</strong> Your request is confirmed at once, without waiting for the host; then you pay to secure the car.
                  </span>
                </p>
              ) : (
                <div className="rounded-xl bg-stone-50 p-3 text-sm text-stone-700" data-testid="instant-eligibility">
                  <p>
                    <strong>This car books instantly for renters who meet its requirements.</strong> Your request goes to the host:
                  </p>
                  <ul className="mt-1 list-disc pl-5">
                    {eligibility.data.unmet.map((u) => (
                      <li key={u.requirement}>{u.message}</li>
                    ))}
                  </ul>
                </div>
              )
            ) : null}
            <Button size="lg" block onClick={submit} disabled={!!blocker} loading={createBooking.isPending}>
              {instantForYou ? 'Book Instantly' : 'Book Now'}
            </Button>
            {blocker && blocker !== 'pending' ? <p className="text-center text-xs text-stone-500">{BLOCKER_HINTS[blocker]}</p> : null}
            <p className="text-center text-xs text-stone-500">{instantForYou ? 'You pay once it is confirmed, straight after you book.' : "You won't be charged until the host accepts."}</p>
          </>
        )}
      </div>

      <ConfirmBookingDialog
        open={confirmOpen}
        summary={{
          carName,
          isHourly,
          startDate: form.startDate,
          endDate: form.endDate,
          startTime: form.startTime,
          endTime: form.endTime,
          pickupName: pickup?.name,
          insuranceName: insurance?.name,
        }}
        price={price}
        policy={policy}
        isSending={createBooking.isPending}
        instant={instantForYou}
        onCancel={() => setConfirmOpen(false)}
        onConfirm={send}
      />
      <BookingConfirmationModal
        booking={booking}
        carName={carName}
        onClose={() => setBooking(null)}
        onPay={
          onPay
            ? (confirmed) => {
                setBooking(null);
                onPay(confirmed);
              }
            : undefined
        }
      />
    </section>
  );
}

/**
 * A time of day. The select fills its whole box, the label sits inside it, so the tap target is the
 * box (at least 44 px tall, as the date buttons beside it), never the 22 px line of text alone.
 */
function TimeSelect({
  label,
  slots,
  value,
  taken,
  refused,
  onChange,
}: {
  label: string;
  /** The times offered: 06:00 to 22:00, or a pickup location's own times. */
  slots: readonly string[];
  value: string;
  taken: ReadonlySet<string>;
  /** Times the car's trip rules refuse, with a short reason ("too soon", "under 2 hours"). */
  refused?: ReadonlyMap<string, string>;
  onChange: (time: string) => void;
}) {
  const id = `${label.toLowerCase().replace(/\s+/g, '-')}-select`;
  return (
    <div className="relative rounded-xl border border-stone-300 focus-within:border-stone-900 focus-within:ring-1 focus-within:ring-stone-900 hover:border-stone-400">
      <label htmlFor={id} className="pointer-events-none absolute top-2 left-3 text-[11px] font-semibold tracking-wide text-stone-500 uppercase">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="min-h-[3.25rem] w-full cursor-pointer rounded-xl bg-transparent px-3 pt-6 pb-2 text-sm font-semibold text-stone-900 focus:outline-none"
      >
        {slots.map((time) => (
          <option key={time} value={time}>
            {taken.has(time) ? `${time} (taken)` : refused?.has(time) ? `${time} (${refused.get(time)})` : time}
          </option>
        ))}
      </select>
    </div>
  );
}
