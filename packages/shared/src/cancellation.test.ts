// The cancellation policy, case by case (issue 20): each row's amounts are worked out by hand in
// its comment, from the trip's stored price, so the function is checked against arithmetic, not
// against itself.
import { describe, expect, it } from 'vitest';
import { formatRand } from './pricing';
import { cancellationOutcome, describeCancellationPolicy, freeCancellationUntil, type AdminRefund, type CancellationActor, type PaidTrip } from './cancellation';

const at = (iso: string) => new Date(iso);
const H = 60 * 60 * 1000;

// 4 days x R 800 = R 3 200 rental; service fee 15 % = R 480; insurance 4 x R 150 = R 600; pickup
// R 200: total R 4 480. Host fee 20 %. Starts Fri 29 Jan 2027, 10:00 SAST (08:00 UTC). Paid 9 days before.
const long: PaidTrip = {
  isHourly: false,
  startDate: '2027-01-29',
  startTime: '10:00',
  durationDays: 4,
  subtotalCents: 320_000,
  totalCents: 448_000,
  hostFeeRate: 20,
  paidAt: at('2027-01-20T06:00:00Z'),
};
const longStart = at('2027-01-29T08:00:00Z').getTime();

// 2 days x R 455,50 = R 911 rental; service fee 15 % = R 136,65 -> R 137: total R 1 048. Host fee 25 %.
const short: PaidTrip = { ...long, durationDays: 2, subtotalCents: 91_100, totalCents: 104_800, hostFeeRate: 25 };

// 3 hours x R 80 = R 240 rental; service fee 15 % = R 36: total R 276. Host fee 20 %.
const hourly: PaidTrip = { ...long, isHourly: true, durationDays: 1, subtotalCents: 24_000, totalCents: 27_600 };

interface Row {
  name: string;
  trip: PaidTrip;
  actor: CancellationActor;
  now: Date;
  noShow?: boolean;
  adminRefund?: AdminRefund;
  want: { rule: string; refund: number; fee: number; host: number; platform: number; penalty: number };
}

const rows: Row[] = [
  // 24 h and 1 min before the start: free, all R 4 480 back.
  { name: 'renter, 24 h 1 min before: free', trip: long, actor: 'renter', now: new Date(longStart - 24 * H - 60_000), want: { rule: 'renter_free', refund: 448_000, fee: 0, host: 0, platform: 0, penalty: 0 } },
  // Exactly 24 h before: the free window has closed. Fee = R 3 200 / 4 days = R 800 (trip > 2 days);
  // refund R 4 480 - R 800 = R 3 680; host R 800 x 80 % = R 640; platform R 160.
  { name: 'renter, exactly 24 h before: late, a day’s rental', trip: long, actor: 'renter', now: new Date(longStart - 24 * H), want: { rule: 'renter_late', refund: 368_000, fee: 80_000, host: 64_000, platform: 16_000, penalty: 0 } },
  // Short trip (2 days): half a day = R 911 / 2 / 2 = R 227,75 -> R 228; refund R 1 048 - R 228 = R 820;
  // host R 228 x 75 % = R 171; platform R 57.
  { name: 'renter, short trip late: half a day’s rental', trip: short, actor: 'renter', now: new Date(longStart - 2 * H), want: { rule: 'renter_late', refund: 82_000, fee: 22_800, host: 17_100, platform: 5_700, penalty: 0 } },
  // Hourly: half the rental part, R 240 / 2 = R 120; refund R 276 - R 120 = R 156; host R 96; platform R 24.
  { name: 'renter, hourly trip late: half the rental', trip: hourly, actor: 'renter', now: new Date(longStart - 3 * H), want: { rule: 'renter_late', refund: 15_600, fee: 12_000, host: 9_600, platform: 2_400, penalty: 0 } },
  // Paid 10 h before the start (less than 25 h): free for 1 h after payment.
  { name: 'renter, paid 10 h before, cancels 59 min later: free', trip: { ...long, paidAt: new Date(longStart - 10 * H) }, actor: 'renter', now: new Date(longStart - 10 * H + 59 * 60_000), want: { rule: 'renter_free_after_late_booking', refund: 448_000, fee: 0, host: 0, platform: 0, penalty: 0 } },
  { name: 'renter, paid 10 h before, cancels 61 min later: late', trip: { ...long, paidAt: new Date(longStart - 10 * H) }, actor: 'renter', now: new Date(longStart - 10 * H + 61 * 60_000), want: { rule: 'renter_late', refund: 368_000, fee: 80_000, host: 64_000, platform: 16_000, penalty: 0 } },
  // Paid exactly 25 h before: not a late booking; free until 24 h before, which is 1 h after payment.
  { name: 'renter, paid exactly 25 h before, cancels 1 h later: late', trip: { ...long, paidAt: new Date(longStart - 25 * H) }, actor: 'renter', now: new Date(longStart - 24 * H), want: { rule: 'renter_late', refund: 368_000, fee: 80_000, host: 64_000, platform: 16_000, penalty: 0 } },
  // Paid 30 min before the start: the grace hour ends at the start.
  { name: 'renter, paid 30 min before, cancels at the start: late', trip: { ...long, paidAt: new Date(longStart - 30 * 60_000) }, actor: 'renter', now: new Date(longStart), want: { rule: 'renter_late', refund: 368_000, fee: 80_000, host: 64_000, platform: 16_000, penalty: 0 } },
  // No-show, reported by the host after the start: the late fee.
  { name: 'host reports a no-show: the late fee', trip: long, actor: 'host', noShow: true, now: new Date(longStart + 2 * H), want: { rule: 'renter_no_show', refund: 368_000, fee: 80_000, host: 64_000, platform: 16_000, penalty: 0 } },
  // Host cancels 25 h before: renter gets all R 4 480; host penalty R 250.
  { name: 'host, 25 h before: full refund, R 250 penalty', trip: long, actor: 'host', now: new Date(longStart - 25 * H), want: { rule: 'host', refund: 448_000, fee: 0, host: 0, platform: 0, penalty: 25_000 } },
  // Host cancels 23 h before: R 500 penalty.
  { name: 'host, 23 h before: full refund, R 500 penalty', trip: long, actor: 'host', now: new Date(longStart - 23 * H), want: { rule: 'host', refund: 448_000, fee: 0, host: 0, platform: 0, penalty: 50_000 } },
  // Each boundary of the policy on both sides (issue 33: a `<` turned `<=` must fail a test).
  // The host's penalty changes exactly 24 h before the start: 1 ms earlier is still R 250 ...
  { name: 'host, 24 h and 1 ms before: R 250 penalty', trip: long, actor: 'host', now: new Date(longStart - 24 * H - 1), want: { rule: 'host', refund: 448_000, fee: 0, host: 0, platform: 0, penalty: 25_000 } },
  // ... and at exactly 24 h it is the late penalty, R 500.
  { name: 'host, exactly 24 h before: R 500 penalty', trip: long, actor: 'host', now: new Date(longStart - 24 * H), want: { rule: 'host', refund: 448_000, fee: 0, host: 0, platform: 0, penalty: 50_000 } },
  // After the start the host still refunds everything and pays the late penalty.
  { name: 'host, after the start: R 500 penalty', trip: long, actor: 'host', now: new Date(longStart + H), want: { rule: 'host', refund: 448_000, fee: 0, host: 0, platform: 0, penalty: 50_000 } },
  // The renter's free window: 1 ms before it closes, all R 4 480 back.
  { name: 'renter, 24 h and 1 ms before: free', trip: long, actor: 'renter', now: new Date(longStart - 24 * H - 1), want: { rule: 'renter_free', refund: 448_000, fee: 0, host: 0, platform: 0, penalty: 0 } },
  // Paid 25 h before less 1 ms: a late booking, free until 1 h after payment = 24 h less 1 ms before
  // the start, so 24 h - 2 ms before is free and exactly 24 h before is late (R 800 as above).
  { name: 'renter, paid 1 ms inside 25 h, cancels 24 h - 2 ms before: free', trip: { ...long, paidAt: new Date(longStart - 25 * H + 1) }, actor: 'renter', now: new Date(longStart - 24 * H + 1 - 2), want: { rule: 'renter_free', refund: 448_000, fee: 0, host: 0, platform: 0, penalty: 0 } },
  { name: 'renter, paid 1 ms inside 25 h, cancels 24 h - 1 ms before: late', trip: { ...long, paidAt: new Date(longStart - 25 * H + 1) }, actor: 'renter', now: new Date(longStart - 24 * H + 1), want: { rule: 'renter_late', refund: 368_000, fee: 80_000, host: 64_000, platform: 16_000, penalty: 0 } },
  // Paid 24 h 30 min before: free until 23 h 30 min before; at exactly 24 h before it is already
  // the grace of a late booking (inside the last day), not the ordinary free window.
  { name: 'renter, paid 24.5 h before, cancels exactly 24 h before: free by the late-booking grace', trip: { ...long, paidAt: new Date(longStart - 24.5 * H) }, actor: 'renter', now: new Date(longStart - 24 * H), want: { rule: 'renter_free_after_late_booking', refund: 448_000, fee: 0, host: 0, platform: 0, penalty: 0 } },
  // (Paid exactly 25 h before is the one boundary no amount can show: as a late booking its grace
  // would end 1 h after payment, which is 24 h before the start, where the ordinary window ends.)
  // Paid 10 h before: the grace hour ends exactly 1 h after payment.
  { name: 'renter, paid 10 h before, cancels 1 h - 1 ms later: free', trip: { ...long, paidAt: new Date(longStart - 10 * H) }, actor: 'renter', now: new Date(longStart - 9 * H - 1), want: { rule: 'renter_free_after_late_booking', refund: 448_000, fee: 0, host: 0, platform: 0, penalty: 0 } },
  { name: 'renter, paid 10 h before, cancels exactly 1 h later: late', trip: { ...long, paidAt: new Date(longStart - 10 * H) }, actor: 'renter', now: new Date(longStart - 9 * H), want: { rule: 'renter_late', refund: 368_000, fee: 80_000, host: 64_000, platform: 16_000, penalty: 0 } },
  // Paid 30 min before: free until the start, not past it (1 ms before the start is free).
  { name: 'renter, paid 30 min before, cancels 1 ms before the start: free', trip: { ...long, paidAt: new Date(longStart - 30 * 60_000) }, actor: 'renter', now: new Date(longStart - 1), want: { rule: 'renter_free_after_late_booking', refund: 448_000, fee: 0, host: 0, platform: 0, penalty: 0 } },
  // Trip length boundary of the fee: 3 days is "more than two" (a whole day), 2 days half a day,
  // 1 day half a day. 3 x R 600 = R 1 800 rental, total R 2 070; fee R 600; host 80 % = R 480.
  { name: 'renter, 3-day trip late: a day’s rental', trip: { ...long, durationDays: 3, subtotalCents: 180_000, totalCents: 207_000 }, actor: 'renter', now: new Date(longStart - H), want: { rule: 'renter_late', refund: 147_000, fee: 60_000, host: 48_000, platform: 12_000, penalty: 0 } },
  // 2 x R 600 = R 1 200, total R 1 380; fee half a day R 300; host R 240; platform R 60.
  { name: 'renter, 2-day trip late: half a day’s rental', trip: { ...long, durationDays: 2, subtotalCents: 120_000, totalCents: 138_000 }, actor: 'renter', now: new Date(longStart - H), want: { rule: 'renter_late', refund: 108_000, fee: 30_000, host: 24_000, platform: 6_000, penalty: 0 } },
  // 1 x R 455 = R 455, total R 523; half a day R 227,50 -> R 228 (half up); host 80 % = R 182,40 -> R 182; platform R 46.
  { name: 'renter, 1-day trip late: half a day, rounded half up', trip: { ...long, durationDays: 1, subtotalCents: 45_500, totalCents: 52_300 }, actor: 'renter', now: new Date(longStart - H), want: { rule: 'renter_late', refund: 29_500, fee: 22_800, host: 18_200, platform: 4_600, penalty: 0 } },
  { name: 'admin, full refund', trip: long, actor: 'admin', now: new Date(longStart - 2 * H), adminRefund: { kind: 'full' }, want: { rule: 'admin_full', refund: 448_000, fee: 0, host: 0, platform: 0, penalty: 0 } },
  { name: 'admin, by policy inside the last day', trip: long, actor: 'admin', now: new Date(longStart - 2 * H), adminRefund: { kind: 'policy' }, want: { rule: 'admin_policy', refund: 368_000, fee: 80_000, host: 64_000, platform: 16_000, penalty: 0 } },
  // Admin refunds R 4 000 with a reason: R 480 kept; host R 480 x 80 % = R 384; platform R 96.
  { name: 'admin, an amount with a reason', trip: long, actor: 'admin', now: new Date(longStart - 2 * H), adminRefund: { kind: 'amount', amountCents: 400_000, reason: 'Dispute settled' }, want: { rule: 'admin_amount', refund: 400_000, fee: 48_000, host: 38_400, platform: 9_600, penalty: 0 } },
];

describe('the cancellation policy', () => {
  it.each(rows)('$name', ({ trip, actor, now, noShow, adminRefund, want }) => {
    const o = cancellationOutcome({ trip, actor, now, ...(noShow ? { noShow } : {}), ...(adminRefund ? { adminRefund } : {}) });
    expect({ rule: o.rule, refund: o.refundCents, fee: o.feeCents, host: o.hostShareCents, platform: o.platformShareCents, penalty: o.hostPenaltyCents }).toEqual(want);
    // Every cent of the payment is accounted for: refunded, or the fee shared between host and platform.
    expect(o.refundCents + o.feeCents).toBe(trip.totalCents);
    expect(o.hostShareCents + o.platformShareCents).toBe(o.feeCents);
  });

  it('the penalties are settings', () => {
    const o = cancellationOutcome({ trip: long, actor: 'host', now: new Date(longStart - 2 * H), penalties: { hostPenaltyEarlyCents: 10_000, hostPenaltyLateCents: 75_000 } });
    expect(o.hostPenaltyCents).toBe(75_000);
  });

  it('says the policy in plain words with the real dates', () => {
    expect(freeCancellationUntil(long).toISOString()).toBe('2027-01-28T08:00:00.000Z');
    expect(describeCancellationPolicy(long)).toBe(`Free cancellation until Thu 28 Jan, 10:00. After that, cancelling costs ${formatRand(800)}; the rest is refunded.`);
  });
});
