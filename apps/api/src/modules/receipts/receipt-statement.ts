// What a receipt or an invoice says, as plain data (decision 040): the renter's receipt and the
// host's invoice of one booking, each line a sum of the booking's ledger rows. Pure: the renderer
// (receipt-pdf.ts) only lays these lines out, and the tests read the same figures back from the PDF.
import { bookingDiscountLabel, formatRand, serviceFeeLabel, TIME_ZONE } from '@karoo/shared';
import { CPA_WAIVER_CODE, type LedgerEntry } from '../ledger';

/** The platform's company details, from the environment (env.ts: COMPANY_*). */
export interface Company {
  name: string;
  registration: string;
  address: string;
  /** SARS VAT number; null while Karoo is not registered for VAT. */
  vatNumber: string | null;
  /** Where the company is found online, e.g. karoo.co.za. */
  website: string;
}

/** The booking as the documents need it (the bookings module's BookingRecord has all of it). */
export interface StatementBooking {
  booking_number: string;
  status: string;
  cancel_cause: string | null;
  cancelled_at: Date | null;
  completed_at: Date | null;
  start_date: string;
  end_date: string;
  start_time: string;
  end_time: string;
  is_hourly_booking: boolean;
  duration_days: number;
  duration_hours: number | null;
  service_fee_rate: number;
  commission_rate: number;
  pickup_fee_cents: number;
  /** The car's weekly or monthly discount taken off the rental when it was booked (decision 048; 0 when none). */
  discount_cents?: number;
  discount_rate?: number;
  pickup_option: { name: string; address?: string } | null;
  insurance_option: { name: string } | null;
  car_make: string;
  car_model: string;
  car_year: number;
  car_color: string;
  car_plate_number: string;
  car_pickup_location: string;
  renter_full_name: string;
  renter_username: string;
  owner_full_name: string;
  owner_username: string;
}

export interface StatementLine {
  label: string;
  /** A second, smaller line under the label: when, which reference, why. */
  detail?: string;
  cents: number;
  /** Shown for information, left out of the section's total (a failed refund). */
  excluded?: boolean;
}

export interface StatementSection {
  heading: string;
  lines: StatementLine[];
  /** The section's bottom line, in bold. */
  total?: StatementLine;
  /** Small print under the section. */
  note?: string;
}

export interface Statement {
  kind: 'receipt' | 'invoice';
  title: string;
  /** Its number for life (RC-000042, HI-000042), from issued_documents (decision 056). */
  number: string;
  /** The number of the document this one replaces (the same booking's, before its content changed), or null. */
  replaces: string | null;
  issuedAt: string;
  bookingNumber: string;
  company: Company;
  parties: { label: string; name: string }[];
  /** Label and value pairs in two columns; a wide one takes a whole row below them. */
  trip: { label: string; value: string; wide?: boolean }[];
  sections: StatementSection[];
  vatLine: string;
  notes: string[];
}

/** South Africa's standard VAT rate (VAT Act section 7(1)); a change of rate is a change of code. */
export const VAT_RATE_PERCENT = 15;

// ---- Sums of the ledger ----

type Entry = Pick<LedgerEntry, 'kind' | 'code' | 'state' | 'amount_cents' | 'moved_at' | 'recorded_at' | 'charge_reference' | 'provider_reference' | 'reason'>;

/** The sum of the rows of one kind whose code is one of `codes` (any code when none are given). */
function sumOf(entries: readonly Entry[], kind: Entry['kind'], ...codes: string[]): number {
  return entries
    .filter((e) => e.kind === kind && (codes.length === 0 || codes.includes(e.code)))
    .reduce((sum, e) => sum + Number(e.amount_cents), 0);
}

const refundedCents = (entries: readonly Entry[], ...states: Entry['state'][]) =>
  entries.filter((e) => e.kind === 'refund' && states.includes(e.state)).reduce((sum, e) => sum + Number(e.amount_cents), 0);

/** The trip's price as its charge was shared: rental and pickup (the host's and the host fee), the service fee and insurance. */
function tripPrice(entries: readonly Entry[], booking: StatementBooking) {
  const rentalAndPickup = sumOf(entries, 'host_earning', 'trip') + sumOf(entries, 'platform_fee', 'host_fee');
  // The ledger keeps rental and pickup as one share; the booking's stored pickup fee splits them.
  const pickup = Math.min(booking.pickup_fee_cents, Math.max(0, rentalAndPickup));
  return {
    rental: rentalAndPickup - pickup,
    pickup,
    serviceFee: sumOf(entries, 'platform_fee', 'service_fee'),
    insurance: sumOf(entries, 'platform_fee', 'insurance'),
  };
}

// ---- Words ----

const instantFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: TIME_ZONE,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
// A booking's dates are Johannesburg calendar dates already: formatted as written, in UTC.
const calendarFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });

/** An instant in Johannesburg: "12 Apr 2027, 14:05". */
export function formatInstant(instant: Date): string {
  return instantFormat.format(instant);
}

/** A booking's local date and time: "Sat 10 Apr 2027, 09:00". */
export function formatLocalDateTime(date: string, time: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return `${calendarFormat.format(new Date(Date.UTC(y, m - 1, d)))}, ${time.slice(0, 5)}`;
}

/** Rand as the app shows them ("R 1 250", "R 172,50"), a deduction with a leading minus. */
export function formatCents(cents: number): string {
  return cents < 0 ? `-${formatRand(-cents / 100)}` : formatRand(cents / 100);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function durationOf(b: StatementBooking): string {
  return b.is_hourly_booking ? plural(b.duration_hours ?? 0, 'hour') : plural(b.duration_days, 'day');
}

const CANCELLED_BY: Record<string, string> = {
  renter: 'the renter',
  host: 'the host',
  no_show: 'the host (the renter did not arrive)',
  admin: 'Karoo',
  expired: 'Karoo (it expired)',
  car_removed: 'Karoo (the car was removed)',
  renter_closed: 'Karoo (the renter closed their account)',
};

function statusOf(b: StatementBooking): string {
  if (b.status === 'cancelled') {
    const by = CANCELLED_BY[b.cancel_cause ?? ''] ?? 'Karoo';
    return `Cancelled by ${by}${b.cancelled_at ? ` on ${formatInstant(b.cancelled_at)}` : ''}`;
  }
  if (b.status === 'completed') return `Completed${b.completed_at ? ` on ${formatInstant(b.completed_at)}` : ''}`;
  if (b.status === 'active') return 'Paid';
  return b.status.charAt(0).toUpperCase() + b.status.slice(1);
}

const nameOf = (fullName: string, username: string) => fullName.trim() || username;

/** Who, what car, when: the same block on both documents (wide items take a whole row). */
function tripDetails(b: StatementBooking): Statement['trip'] {
  const collection = b.pickup_option ? `${b.pickup_option.name}${b.pickup_option.address ? `, ${b.pickup_option.address}` : ''}` : b.car_pickup_location;
  return [
    { label: 'Car', value: `${b.car_year} ${b.car_make} ${b.car_model}, ${b.car_color}` },
    { label: 'Registration', value: b.car_plate_number },
    { label: 'Duration', value: durationOf(b) },
    { label: 'Starts', value: formatLocalDateTime(b.start_date, b.start_time) },
    { label: 'Ends', value: formatLocalDateTime(b.end_date, b.end_time) },
    { label: 'Collection', value: collection, wide: true },
    { label: 'Status', value: statusOf(b), wide: true },
  ];
}

/** A kept cancellation fee given back under the Consumer Protection Act s. 17 (decision 067), in the receipt's words. */
export const CPA_WAIVER_LABEL = 'Cancellation fee waived (Consumer Protection Act s. 17)';

/** The waiver's refund (decision 067): named for what it is, with where it stands. */
function waiverRefundLine(e: Entry): StatementLine {
  const requested = formatInstant(e.recorded_at);
  if (e.state === 'succeeded') return { label: `${CPA_WAIVER_LABEL}, refunded to your card`, detail: `Refunded ${formatInstant(e.moved_at ?? e.recorded_at)}`, cents: -e.amount_cents };
  if (e.state === 'pending') return { label: `${CPA_WAIVER_LABEL}, refund pending`, detail: `Requested ${requested}, on its way to your card`, cents: -e.amount_cents };
  return {
    label: `${CPA_WAIVER_LABEL}, refund failed`,
    detail: `Requested ${requested}; the card issuer refused it, Karoo is retrying · not deducted`,
    cents: -e.amount_cents,
    excluded: true,
  };
}

function refundLine(e: Entry): StatementLine {
  if (e.code === CPA_WAIVER_CODE) return waiverRefundLine(e);
  const requested = formatInstant(e.recorded_at);
  const why = e.reason?.trim() || e.code.replaceAll('_', ' ');
  if (e.state === 'succeeded') {
    return { label: 'Refund to your card', detail: `Refunded ${formatInstant(e.moved_at ?? e.recorded_at)} · ${why}`, cents: -e.amount_cents };
  }
  if (e.state === 'pending') {
    return { label: 'Refund to your card (pending)', detail: `Requested ${requested}, on its way to your card · ${why}`, cents: -e.amount_cents };
  }
  return {
    label: 'Refund to your card (failed)',
    detail: `Requested ${requested}; the card issuer refused it, Karoo is retrying · not deducted · ${why}`,
    cents: -e.amount_cents,
    excluded: true,
  };
}

/** The rental line's detail when the trip was priced with the car's weekly or monthly discount. */
function discountDetail(b: StatementBooking): { detail?: string } {
  if (!b.discount_cents) return {};
  return { detail: `After the ${bookingDiscountLabel(b.discount_rate ?? 0, b.duration_days).toLowerCase()}: ${formatCents(b.discount_cents)} off the rental` };
}

function chargeLine(e: Entry): StatementLine {
  const reference = e.charge_reference ? ` · ref ${e.charge_reference}` : '';
  if (e.kind === 'deposit') return { label: 'Deposit, with the card payment', detail: `Paid ${formatInstant(e.moved_at ?? e.recorded_at)}${reference} · back after the claim window, less any trip charges`, cents: e.amount_cents };
  if (e.code === 'claim') return { label: 'Trip charges, charged to your card', detail: `Paid ${formatInstant(e.moved_at ?? e.recorded_at)}${reference}`, cents: e.amount_cents };
  return { label: 'Card payment', detail: `Paid ${formatInstant(e.moved_at ?? e.recorded_at)}${reference}`, cents: e.amount_cents };
}

/** A trip charge paid (decision 065), by kind: what the deposit and the card paid for it. */
function claimLines(entries: readonly Entry[]): StatementLine[] {
  const byKind = new Map<string, number>();
  for (const e of entries) {
    if (e.kind !== 'host_earning' && e.kind !== 'platform_fee') continue;
    if (!e.code.startsWith('claim_') && e.code !== 'claim_fee') continue;
    // The platform's fee is part of the charge's price, named with the charges.
    const kind = e.code === 'claim_fee' ? 'fee' : e.code.slice('claim_'.length);
    byKind.set(kind, (byKind.get(kind) ?? 0) + Number(e.amount_cents));
  }
  const fee = byKind.get('fee') ?? 0;
  byKind.delete('fee');
  const lines = [...byKind].map(([kind, cents]) => ({ label: `Trip charge: ${kind.replaceAll('_', ' ')}`, cents }));
  if (fee) lines.push({ label: 'Karoo fee on trip charges (included in what you paid)', cents: fee });
  return lines;
}

const sumLines = (lines: readonly StatementLine[]) => lines.filter((l) => !l.excluded).reduce((sum, l) => sum + l.cents, 0);
const nonZero = (lines: StatementLine[]) => lines.filter((l) => l.cents !== 0);

/** VAT included in a fee at the standard rate: the tax fraction 15/115 of the inclusive amount, to the cent. */
export function vatIncludedCents(inclusiveCents: number): number {
  return Math.round((inclusiveCents * VAT_RATE_PERCENT) / (100 + VAT_RATE_PERCENT));
}

function vatLine(company: Company, feesCents: number, whichFees: string, extra = ''): string {
  if (!company.vatNumber) return 'Karoo is not registered for VAT; no VAT is charged.';
  if (feesCents === 0) return `None of Karoo's ${whichFees} were kept on this booking, so it carries no VAT.${extra}`;
  return `VAT at ${VAT_RATE_PERCENT}% included in Karoo's ${whichFees} of ${formatCents(feesCents)}: ${formatCents(vatIncludedCents(feesCents))}.${extra}`;
}

export interface StatementInput {
  booking: StatementBooking;
  entries: readonly Entry[];
  company: Company;
  /** The document's number and the one it replaces (receipts.service numbers it). */
  number: string;
  replaces: string | null;
  issuedAt: Date;
}

/** The renter's receipt: the trip's price, every payment and refund, any cancellation fee, and the VAT line. */
export function renterReceipt({ booking: b, entries, company, number, replaces, issuedAt }: StatementInput): Statement {
  const price = tripPrice(entries, b);
  const priceLines = nonZero([
    { label: `Rental (${durationOf(b)})`, ...discountDetail(b), cents: price.rental },
    { label: `Pickup: ${b.pickup_option?.name ?? 'delivery'}`, cents: price.pickup },
    { label: serviceFeeLabel(b.service_fee_rate), cents: price.serviceFee },
    { label: `Insurance: ${b.insurance_option?.name ?? 'cover'}`, cents: price.insurance },
  ]);
  const money = [...entries.filter((e) => e.kind === 'charge' || e.kind === 'deposit').map(chargeLine), ...entries.filter((e) => e.kind === 'refund').map(refundLine)];
  const feeCents = sumOf(entries, 'host_earning', 'cancellation_fee') + sumOf(entries, 'platform_fee', 'cancellation_fee');
  const sections: StatementSection[] = [];
  if (priceLines.length > 0) {
    sections.push({ heading: 'Trip price', lines: priceLines, total: { label: 'Total trip price', cents: sumLines(priceLines) } });
  }
  const charges = claimLines(entries);
  if (charges.length > 0) {
    const fromDeposit = entries.filter((e) => e.kind === 'deposit_applied').reduce((sum, e) => sum + Number(e.amount_cents), 0);
    sections.push({
      heading: 'Trip charges after the trip',
      lines: charges,
      total: { label: 'Total trip charges', cents: sumLines(charges) },
      note: `${formatCents(fromDeposit)} of them was paid from your deposit; the rest of the deposit comes back to your card.`,
    });
  }
  const pending = refundedCents(entries, 'pending');
  sections.push({
    heading: 'Payments and refunds',
    lines: money,
    total: { label: 'Net amount paid', cents: sumLines(money) },
    ...(pending > 0 ? { note: `${formatCents(pending)} of refunds is on its way back to your card; it shows on your statement once your bank has processed it.` } : {}),
  });
  if (feeCents !== 0) {
    const policyLine = { label: 'Cancellation fee kept from your payment', detail: 'By the cancellation policy shown when the trip was booked', cents: feeCents };
    const waivedCents = sumOf(entries, 'host_earning', CPA_WAIVER_CODE) + sumOf(entries, 'platform_fee', CPA_WAIVER_CODE);
    sections.push(
      waivedCents === 0
        ? { heading: 'Cancellation', lines: [policyLine] }
        : {
            heading: 'Cancellation',
            lines: [
              { ...policyLine, label: 'Cancellation fee by the policy' },
              { label: CPA_WAIVER_LABEL, detail: 'You, or a member of your immediate family, died or were admitted to hospital: no fee is kept', cents: waivedCents },
            ],
            total: { label: 'Cancellation fee kept', cents: feeCents + waivedCents },
          },
    );
  }
  const vatRegistered = company.vatNumber !== null;
  const karooFees = sumOf(entries, 'platform_fee', 'service_fee', 'service_fee_cancelled', 'insurance', 'insurance_cancelled');
  return {
    kind: 'receipt',
    title: vatRegistered ? 'Tax invoice and receipt' : 'Receipt',
    number,
    replaces,
    issuedAt: formatInstant(issuedAt),
    bookingNumber: b.booking_number,
    company,
    parties: [
      { label: 'Billed to', name: nameOf(b.renter_full_name, b.renter_username) },
      { label: 'Host', name: nameOf(b.owner_full_name, b.owner_username) },
    ],
    trip: tripDetails(b),
    sections,
    vatLine: vatLine(company, karooFees, 'service fee and insurance', ' The rental is supplied by the host and carries no VAT from Karoo.'),
    notes: [`Karoo collects the rental on behalf of the host, ${nameOf(b.owner_full_name, b.owner_username)}.`],
  };
}

/** The host's invoice: their share of the trip after Karoo's host fee, any cancellation, penalties and payouts. */
export function hostInvoice({ booking: b, entries, company, number, replaces, issuedAt }: StatementInput): Statement {
  const hostFee = sumOf(entries, 'platform_fee', 'host_fee');
  const feeHost = sumOf(entries, 'host_earning', 'cancellation_fee');
  const feePlatform = sumOf(entries, 'platform_fee', 'cancellation_fee');
  const shareCents = sumOf(entries, 'host_earning');
  const rate = `${b.commission_rate}%`;
  const earningLines = nonZero([
    { label: b.pickup_fee_cents > 0 ? 'Rental and pickup paid by the renter' : 'Rental paid by the renter', ...discountDetail(b), cents: sumOf(entries, 'host_earning', 'trip') + hostFee },
    { label: `Karoo host fee (${rate})`, cents: -hostFee },
    { label: 'Trip cancelled: your share taken back', cents: sumOf(entries, 'host_earning', 'trip_cancelled') },
    { label: 'Cancellation fee paid by the renter', cents: feeHost + feePlatform },
    { label: `Karoo host fee on the cancellation fee (${rate})`, cents: -feePlatform },
    { label: `${CPA_WAIVER_LABEL}: your share taken back`, cents: sumOf(entries, 'host_earning', CPA_WAIVER_CODE) },
    { label: 'Trip charges paid by the renter (your share)', cents: entries.filter((e) => e.kind === 'host_earning' && e.code.startsWith('claim_')).reduce((sum, e) => sum + Number(e.amount_cents), 0) },
  ]);
  // A share recorded under another code still counts, named as what it is.
  const unexplained = shareCents - sumLines(earningLines);
  if (unexplained !== 0) earningLines.push({ label: 'Other adjustments', cents: unexplained });

  const penalties = entries.filter((e) => e.kind === 'host_penalty');
  const penaltyLines = penalties.map((e) => ({
    label: 'Penalty for cancelling the trip',
    detail: `${formatInstant(e.moved_at ?? e.recorded_at)}${e.reason ? ` · ${e.reason}` : ''} · deducted from your payouts`,
    cents: -e.amount_cents,
  }));
  const payoutLines = entries
    .filter((e) => e.kind === 'payout' || e.kind === 'payout_reversal')
    .map((e) => {
      const reference = e.provider_reference ? ` · ref ${e.provider_reference}` : '';
      const when = formatInstant(e.moved_at ?? e.recorded_at);
      return e.kind === 'payout'
        ? { label: 'Paid to your bank account', detail: `${when}${reference}`, cents: e.amount_cents }
        : { label: 'Payout reversed', detail: `${when}${reference}${e.reason ? ` · ${e.reason}` : ''}`, cents: -e.amount_cents };
    });
  const earnedCents = shareCents - sumOf(entries, 'host_penalty');
  const paidCents = sumLines(payoutLines);
  const dueCents = earnedCents - paidCents;
  const isFinal = b.status === 'completed' || b.status === 'cancelled';

  const charged = entries.filter((e) => e.kind === 'charge').reduce((sum, e) => sum + e.amount_cents, 0);
  const refunded = refundedCents(entries, 'succeeded', 'pending');
  const sections: StatementSection[] = [
    {
      heading: "The renter's payment",
      lines: nonZero([
        { label: 'Paid by the renter', cents: charged },
        { label: 'Refunded to the renter', cents: -refunded },
      ]),
      total: { label: 'Kept from the renter', cents: charged - refunded },
      note: "Includes the renter's service fee and insurance, which are Karoo's and not part of your earnings.",
    },
    { heading: 'Your earnings', lines: earningLines, total: { label: 'Your share', cents: shareCents } },
  ];
  if (penaltyLines.length > 0) {
    sections.push({ heading: 'Penalties', lines: penaltyLines, total: { label: 'Your earnings after penalties', cents: earnedCents } });
  }
  const payoutNote = !isFinal ? 'Your share becomes payable once the trip is completed.' : payoutLines.length === 0 ? 'No payout has been made for this booking yet.' : null;
  sections.push({
    heading: 'Payouts',
    lines: payoutLines,
    total: dueCents >= 0 ? { label: 'Still to be paid to you', cents: dueCents } : { label: 'Owed to Karoo, deducted from your next payout', cents: dueCents },
    ...(payoutNote ? { note: payoutNote } : {}),
  });

  const vatRegistered = company.vatNumber !== null;
  // A fee given back under CPA s. 17 is not kept, so carries no VAT.
  const karooFees = sumOf(entries, 'platform_fee', 'host_fee', 'host_fee_cancelled', 'cancellation_fee', CPA_WAIVER_CODE) + sumOf(entries, 'host_penalty');
  return {
    kind: 'invoice',
    title: vatRegistered ? 'Tax invoice' : 'Invoice',
    number,
    replaces,
    issuedAt: formatInstant(issuedAt),
    bookingNumber: b.booking_number,
    company,
    parties: [
      { label: 'Invoice to (host)', name: nameOf(b.owner_full_name, b.owner_username) },
      { label: 'Renter', name: nameOf(b.renter_full_name, b.renter_username) },
    ],
    trip: tripDetails(b),
    sections,
    vatLine: vatLine(company, karooFees, 'host fees and penalties'),
    notes: ["Karoo collected the renter's payment and pays your share to the bank account on your profile."],
  };
}
