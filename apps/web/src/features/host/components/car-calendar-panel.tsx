// The host's calendar of one car (issue 23, decision 047): a month that shows the car's trips and
// the days or hours the host blocked. Tap a day, then another (or drag across days), to choose
// days; Block them whole, or switch to hours and block a part of a day; a note is private to the
// host. A chosen day lists what holds it, with Unblock on blocks. The buffer kept free after every
// trip is set below. Keyboard: the days are a grid (arrows move, Enter or Space chooses); the
// buttons and fields are in the page's tab order. Renters only ever see the blocked time as taken.
import {
  addDays,
  BLOCK_NOTE_MAX,
  BUFFER_MINUTE_CHOICES,
  daysSpan,
  formatBuffer,
  publicHolidayOn,
  spansOverlap,
  spanOfHold,
  timeIn,
  todayIn,
  type CalendarHold,
  type Car,
} from '@karoo/shared';
import { clsx } from 'clsx';
import { ChevronLeft, ChevronRight, Lock, Unlock } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { useCarCalendar, useCreateBlock, useDeleteBlock, useUpdateBuffer } from '../api/car-calendar';
import { BLOCK_TIMES, dayLong as formatDayLong, dayShort as formatDayShort, monthTitle as formatMonth, monthWeeks as monthGrid, shiftMonth } from '../utils/calendar-month';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** 'HH:mm' on Karoo's clock (shared's timeIn: one formatter, one time zone for every screen). */
const timeOf = (iso: string) => timeIn(new Date(iso));

/** "09:00–12:00", "all day", "from 17:00", "until 10:00" for a hold as it meets one day. */
function hoursOn(date: string, hold: CalendarHold): string {
  const day = daysSpan(date, date);
  const span = spanOfHold(hold);
  const starts = span.from > day.from;
  const ends = span.to < day.to;
  if (!starts && !ends) return 'all day';
  if (starts && ends) return `${timeOf(hold.from)}–${timeOf(hold.to)}`;
  return starts ? `from ${timeOf(hold.from)}` : `until ${timeOf(hold.to)}`;
}

function holdLabel(hold: CalendarHold): string {
  if (hold.kind === 'block') return 'Blocked';
  if (hold.status === 'pending') return 'Request';
  return hold.status === 'active' ? 'Trip (paid)' : 'Trip';
}

interface Selection {
  start: string;
  end: string;
}

export function CarCalendarPanel({ car }: { car: Car }) {
  const today = useMemo(() => todayIn(), []);
  const [month, setMonth] = useState(today.slice(0, 7));
  const weeks = useMemo(() => monthGrid(month), [month]);
  const first = weeks[0]![0]!.date;
  const last = weeks[weeks.length - 1]![6]!.date;
  const calendar = useCarCalendar(car.car_username, first < today ? today : first, last < today ? today : last);
  const holds = useMemo(() => calendar.data?.holds ?? [], [calendar.data]);

  const [selection, setSelection] = useState<Selection | null>(null);
  const [anchor, setAnchor] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [focusDate, setFocusDate] = useState(today);
  const dayRefs = useRef(new Map<string, HTMLButtonElement>());

  const holdsOn = (date: string) => holds.filter((h) => spansOverlap(spanOfHold(h), daysSpan(date, date)));

  const choose = (date: string) => {
    if (date < today) return;
    if (!anchor) {
      setAnchor(date);
      setSelection({ start: date, end: date });
    } else {
      setSelection({ start: anchor < date ? anchor : date, end: anchor < date ? date : anchor });
      setAnchor(null);
    }
  };

  const moveFocus = (date: string) => {
    setFocusDate(date);
    if (date.slice(0, 7) !== month) setMonth(date.slice(0, 7));
    requestAnimationFrame(() => dayRefs.current.get(date)?.focus());
  };

  const onGridKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }[event.key];
    if (step !== undefined) {
      event.preventDefault();
      moveFocus(addDays(focusDate, step));
    } else if (event.key === 'Escape') {
      setSelection(null);
      setAnchor(null);
    }
  };

  useEffect(() => {
    const stop = () => setDragging(false);
    window.addEventListener('pointerup', stop);
    return () => window.removeEventListener('pointerup', stop);
  }, []);

  return (
    <div className="space-y-5">
      <div className="flex items-center justify-between gap-2">
        <button
          type="button"
          onClick={() => setMonth((m) => shiftMonth(m, -1))}
          disabled={month <= today.slice(0, 7)}
          aria-label="Previous month"
          className="flex size-10 items-center justify-center rounded-full text-stone-700 hover:bg-stone-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:opacity-30"
        >
          <ChevronLeft className="size-5" aria-hidden="true" />
        </button>
        <h3 className="text-base font-semibold text-stone-900" aria-live="polite">
          {formatMonth(month)}
        </h3>
        <button
          type="button"
          onClick={() => setMonth((m) => shiftMonth(m, 1))}
          aria-label="Next month"
          className="flex size-10 items-center justify-center rounded-full text-stone-700 hover:bg-stone-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          <ChevronRight className="size-5" aria-hidden="true" />
        </button>
      </div>

      {calendar.isError ? <Alert tone="danger" title="The calendar could not be loaded">{messageOf(calendar.error, 'Please try again.')}</Alert> : null}

      <div>
        <div className="grid grid-cols-7 text-center text-xs font-medium text-stone-500" aria-hidden="true">
          {WEEKDAYS.map((d) => (
            <span key={d} className="py-1">
              {d}
            </span>
          ))}
        </div>
        <div
          role="grid"
          aria-label={`${formatMonth(month)}: choose days to block`}
          aria-busy={calendar.isLoading || undefined}
          onKeyDown={onGridKey}
          className="space-y-1 select-none"
          data-testid="host-calendar"
        >
          {weeks.map((week) => (
            <div key={week[0]!.date} role="row" className="grid grid-cols-7 gap-1">
            {week.map(({ date, inMonth }) => {
              const on = holdsOn(date);
              const blocks = on.filter((h) => h.kind === 'block');
              const trips = on.filter((h) => h.kind === 'booking');
              const past = date < today;
              const selected = !!selection && date >= selection.start && date <= selection.end;
              const wholeBlock = blocks.some((b) => hoursOn(date, b) === 'all day');
              // South Africa's public holidays, where hosts often ask more (issue 36).
              const holiday = publicHolidayOn(date);
              const description = [
                ...trips.map((h) => `${holdLabel(h)} ${hoursOn(date, h)}${h.booking ? `, ${h.booking.renter_name}` : ''}`),
                ...blocks.map((h) => `Blocked ${hoursOn(date, h)}${h.note ? `: ${h.note}` : ''}`),
              ];
              return (
                <button
                  key={date}
                  ref={(node) => {
                    if (node) dayRefs.current.set(date, node);
                    else dayRefs.current.delete(date);
                  }}
                  type="button"
                  role="gridcell"
                  data-date={date}
                  data-blocked={wholeBlock ? 'day' : blocks.length ? 'hours' : undefined}
                  data-trips={trips.length || undefined}
                  aria-selected={selected}
                  aria-disabled={past || undefined}
                  tabIndex={date === focusDate ? 0 : -1}
                  onFocus={() => setFocusDate(date)}
                  onPointerDown={(event) => {
                    if (past || event.button !== 0) return;
                    // A second tap ends the range the first one began; otherwise a drag (or a first tap) begins one.
                    if (anchor && selection && selection.start === anchor && selection.end === anchor) {
                      choose(date);
                      return;
                    }
                    setDragging(true);
                    setAnchor(date);
                    setSelection({ start: date, end: date });
                  }}
                  onPointerEnter={() => {
                    if (!dragging || !anchor || past) return;
                    setSelection({ start: anchor < date ? anchor : date, end: anchor < date ? date : anchor });
                  }}
                  onPointerUp={() => {
                    if (!dragging) return;
                    setDragging(false);
                    if (selection && selection.start !== selection.end) setAnchor(null);
                  }}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' || event.key === ' ') {
                      event.preventDefault();
                      choose(date);
                    }
                  }}
                  className={clsx(
                    'relative flex min-h-14 flex-col items-stretch rounded-lg border p-1 text-left text-xs transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 sm:min-h-20',
                    past ? 'cursor-not-allowed border-transparent bg-stone-50 text-stone-400' : 'cursor-pointer border-stone-200 bg-white hover:border-stone-400',
                    wholeBlock && !past && 'border-stone-300 bg-[repeating-linear-gradient(135deg,#f5f5f4_0,#f5f5f4_6px,#e7e5e4_6px,#e7e5e4_12px)]',
                    selected && 'ring-2 ring-brand-600 ring-offset-1',
                    !inMonth && 'opacity-60',
                  )}
                >
                  <span className="flex items-center justify-between gap-1">
                    <span className={clsx('font-semibold', date === today ? 'text-brand-700' : past ? 'text-stone-400' : 'text-stone-900')}>{Number(date.slice(8))}</span>
                    {holiday ? <span className="size-1.5 shrink-0 rounded-full bg-rose-500 sm:hidden" aria-hidden="true" /> : null}
                  </span>
                  {holiday ? (
                    <span className="hidden truncate text-[10px] leading-4 font-medium text-rose-700 sm:block" aria-hidden="true" data-holiday={holiday.name}>
                      {holiday.name}
                    </span>
                  ) : null}
                  {/* The name is what is seen, then the day in words and what holds it (for screen readers). */}
                  <span className="sr-only">{`, ${formatDayLong(date)}${holiday ? `, ${holiday.name}` : ''}${past ? ', past' : ''}${description.length ? `: ${description.join('; ')}` : ', free'}`}</span>
                  <span className="mt-0.5 flex flex-col gap-0.5">
                    {trips.slice(0, 2).map((h) => (
                      <span
                        key={h.id}
                        className={clsx(
                          'h-1.5 truncate rounded px-1 text-[10px] leading-4 font-medium sm:h-auto',
                          h.status === 'pending' ? 'bg-amber-200 text-amber-900 sm:bg-amber-100' : 'bg-sky-300 text-sky-900 sm:bg-sky-100',
                        )}
                      >
                        {/* On a phone the day is too narrow for words: a coloured bar, the words are in the day's name. */}
                        <span className="hidden sm:inline">{hoursOn(date, h) === 'all day' ? holdLabel(h) : hoursOn(date, h)}</span>
                      </span>
                    ))}
                    {blocks.slice(0, 2).map((h) => (
                      <span key={h.id} className="flex items-center gap-0.5 truncate rounded bg-stone-700 px-1 text-[10px] leading-4 font-medium text-white">
                        <Lock className="size-2.5 shrink-0" aria-hidden="true" />
                        <span className="hidden sm:inline">{hoursOn(date, h) === 'all day' ? 'Blocked' : hoursOn(date, h)}</span>
                      </span>
                    ))}
                    {trips.length + blocks.length > 4 ? <span className="text-[10px] text-stone-500">+{trips.length + blocks.length - 4}</span> : null}
                  </span>
                </button>
              );
            })}
            </div>
          ))}
        </div>
        <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-stone-600" aria-label="Calendar key">
          <li className="flex items-center gap-1.5">
            <span className="h-3 w-5 rounded bg-sky-100" aria-hidden="true" /> Trip
          </li>
          <li className="flex items-center gap-1.5">
            <span className="h-3 w-5 rounded bg-amber-100" aria-hidden="true" /> Request (not yet accepted)
          </li>
          <li className="flex items-center gap-1.5">
            <span className="h-3 w-5 rounded bg-stone-700" aria-hidden="true" /> Blocked by you
          </li>
          <li className="flex items-center gap-1.5">
            <span className="size-2 rounded-full bg-rose-500" aria-hidden="true" /> Public holiday
          </li>
        </ul>
        <p className="mt-2 text-xs text-stone-600">Tap a day, then another, or drag across days. Renters see blocked time as unavailable, never your note.</p>
      </div>

      {selection ? (
        <SelectionPanel
          key={`${selection.start}-${selection.end}`}
          car={car}
          selection={selection}
          holds={holds}
          onDone={() => {
            setSelection(null);
            setAnchor(null);
          }}
        />
      ) : null}

      <BufferSetting car={car} current={calendar.data?.buffer_minutes ?? car.buffer_minutes ?? 0} />
    </div>
  );
}

function SelectionPanel({ car, selection, holds, onDone }: { car: Car; selection: Selection; holds: CalendarHold[]; onDone: () => void }) {
  const notify = useNotification();
  const createBlock = useCreateBlock(car.car_username);
  const deleteBlock = useDeleteBlock(car.car_username);
  const oneDay = selection.start === selection.end;
  const [hours, setHours] = useState(false);
  const [startTime, setStartTime] = useState('09:00');
  const [endTime, setEndTime] = useState('17:00');
  const [note, setNote] = useState('');
  const span = daysSpan(selection.start, selection.end);
  const meeting = holds.filter((h) => spansOverlap(spanOfHold(h), span));
  const title = oneDay ? formatDayLong(selection.start) : `${formatDayShort(selection.start)} to ${formatDayShort(selection.end)}`;

  const block = () => {
    createBlock.mutate(
      {
        start_date: selection.start,
        end_date: hours ? selection.start : selection.end,
        start_time: hours ? startTime : null,
        end_time: hours ? endTime : null,
        note: note.trim() || null,
      },
      {
        onSuccess: () => {
          notify.success('Blocked', `${hours ? `${formatDayShort(selection.start)}, ${startTime}–${endTime}` : title} is blocked. Renters see it as unavailable.`);
          onDone();
        },
        onError: (error) => notify.error('Could not block', messageOf(error, 'Please try again.')),
      },
    );
  };

  return (
    <section aria-labelledby="calendar-selection" className="rounded-xl border border-stone-200 bg-stone-50 p-4">
      <div className="flex items-start justify-between gap-3">
        <h4 id="calendar-selection" className="text-sm font-semibold text-stone-900">
          {title}
        </h4>
        <button type="button" onClick={onDone} className="text-xs font-semibold text-stone-600 underline underline-offset-2 hover:text-stone-900">
          Clear
        </button>
      </div>

      {meeting.length ? (
        <ul className="mt-3 space-y-2" aria-label="On these days">
          {meeting.map((h) => (
            <li key={h.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-white p-3 text-sm shadow-sm">
              <div className="min-w-0">
                <p className="font-semibold text-stone-900">
                  {holdLabel(h)} · {h.all_day ? (h.start_date === h.end_date ? formatDayShort(h.start_date) : `${formatDayShort(h.start_date)} to ${formatDayShort(h.end_date)}`) : `${formatDayShort(h.start_date)} ${timeOf(h.from)} to ${h.end_date === h.start_date ? '' : `${formatDayShort(h.end_date)} `}${timeOf(h.to)}`}
                </p>
                {h.booking ? (
                  <p className="text-stone-600">
                    {h.booking.renter_name} · {h.booking.booking_number}
                    {h.booking.buffer_minutes ? ` · includes ${formatBuffer(h.booking.buffer_minutes).toLowerCase()} buffer` : ''}
                  </p>
                ) : h.note ? (
                  <p className="text-stone-600">
                    <span className="sr-only">Note: </span>
                    {h.note}
                  </p>
                ) : null}
              </div>
              {h.kind === 'block' ? (
                <Button
                  variant="secondary"
                  size="sm"
                  icon={<Unlock className="size-4" aria-hidden="true" />}
                  loading={deleteBlock.isPending && deleteBlock.variables === h.id}
                  onClick={() =>
                    deleteBlock.mutate(h.id, {
                      onSuccess: () => notify.success('Unblocked', 'Renters can book that time again.'),
                      onError: (error) => notify.error('Could not unblock', messageOf(error, 'Please try again.')),
                    })
                  }
                >
                  Unblock
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-stone-600">Nothing is booked or blocked on {oneDay ? 'this day' : 'these days'}.</p>
      )}

      <form
        className="mt-4 space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          block();
        }}
      >
        <fieldset>
          <legend className="text-xs font-semibold tracking-wide text-stone-500 uppercase">Block</legend>
          <div className="mt-1 flex flex-wrap gap-4 text-sm">
            <label className="flex items-center gap-2">
              <input type="radio" name="block-kind" checked={!hours} onChange={() => setHours(false)} className="size-4 accent-brand-600" />
              {oneDay ? 'The whole day' : 'These whole days'}
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="block-kind" checked={hours} onChange={() => setHours(true)} className="size-4 accent-brand-600" />
              Some hours{oneDay ? '' : ` of ${formatDayShort(selection.start)}`}
            </label>
          </div>
        </fieldset>
        {hours ? (
          <div className="grid grid-cols-2 gap-2">
            <label className="text-sm">
              <span className="block text-xs font-semibold text-stone-600">From</span>
              <select value={startTime} onChange={(e) => setStartTime(e.target.value)} className="mt-1 h-11 w-full rounded-lg border border-stone-300 bg-white px-2">
                {BLOCK_TIMES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            </label>
            <label className="text-sm">
              <span className="block text-xs font-semibold text-stone-600">Until</span>
              <select value={endTime} onChange={(e) => setEndTime(e.target.value)} className="mt-1 h-11 w-full rounded-lg border border-stone-300 bg-white px-2">
                {BLOCK_TIMES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            </label>
          </div>
        ) : null}
        <label className="block text-sm">
          <span className="block text-xs font-semibold text-stone-600">Private note (optional)</span>
          <input
            value={note}
            maxLength={BLOCK_NOTE_MAX}
            onChange={(e) => setNote(e.target.value)}
            placeholder="e.g. Family weekend, service"
            className="mt-1 h-11 w-full rounded-lg border border-stone-300 bg-white px-3"
          />
        </label>
        <Button type="submit" icon={<Lock className="size-4" aria-hidden="true" />} loading={createBlock.isPending}>
          {hours ? `Block ${startTime}–${endTime}` : oneDay ? 'Block this day' : 'Block these days'}
        </Button>
      </form>
    </section>
  );
}

function BufferSetting({ car, current }: { car: Car; current: number }) {
  const notify = useNotification();
  const update = useUpdateBuffer(car.car_username);
  const [value, setValue] = useState(current);
  useEffect(() => setValue(current), [current]);
  const choices: number[] = BUFFER_MINUTE_CHOICES.includes(current as (typeof BUFFER_MINUTE_CHOICES)[number]) ? [...BUFFER_MINUTE_CHOICES] : [...BUFFER_MINUTE_CHOICES, current].sort((a, b) => a - b);
  return (
    <section aria-labelledby="buffer-heading" className="rounded-xl border border-stone-200 p-4">
      <h4 id="buffer-heading" className="text-sm font-semibold text-stone-900">
        Time between trips
      </h4>
      <p className="mt-1 text-sm text-stone-600">Kept free after every trip for cleaning and handover. It applies to trips booked from now on.</p>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <label className="text-sm">
          <span className="sr-only">Buffer after each trip</span>
          <select value={value} onChange={(e) => setValue(Number(e.target.value))} className="h-11 rounded-lg border border-stone-300 bg-white px-3">
            {choices.map((m) => (
              <option key={m} value={m}>
                {formatBuffer(m)}
              </option>
            ))}
          </select>
        </label>
        <Button
          variant="secondary"
          disabled={value === current}
          loading={update.isPending}
          onClick={() =>
            update.mutate(value, {
              onSuccess: (saved) => notify.success('Buffer saved', `${formatBuffer(saved.buffer_minutes)} after every trip.`),
              onError: (error) => notify.error('Could not save the buffer', messageOf(error, 'Please try again.')),
            })
          }
        >
          Save buffer
        </Button>
      </div>
    </section>
  );
}
