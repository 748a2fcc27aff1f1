// The renter's cancellation policy on a trip card, on a fixed clock: Monday 25 February 2030, 10:00
// in Johannesburg. The fixture trip starts Fri 1 Mar 2030, 09:00, for 2 days at R 450 a day, so a
// late cancellation costs half of one day's price, R 225.
import { CPA_WAIVER_POLICY, formatRand } from '@karoo/shared';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { BookingCancellationPolicy, renterCancellationPolicy } from './booking-cancellation-policy';

const NOW = new Date('2030-02-25T08:00:00Z');
const paid = makeBooking({ status: 'active', payment_status: 'paid', paid_at: '2030-02-20T08:00:00.000Z' });
const freeUntilThursday = `Free cancellation until Thu 28 Feb, 09:00. After that, cancelling costs ${formatRand(225)}; the rest is refunded.`;

describe("the renter's cancellation policy on a booking", () => {
  it('shows a paid, upcoming trip its free window from the real payment time', () => {
    expect(renterCancellationPolicy(paid, NOW)).toBe(freeUntilThursday);
    // Paid 23 hours before the start (Thu 28 Feb, 10:00): free for the hour after paying.
    expect(renterCancellationPolicy({ ...paid, paid_at: '2030-02-28T08:00:00.000Z' }, new Date('2030-02-28T08:30:00Z'))).toMatch(/^Free cancellation until Thu 28 Feb, 11:00\./);
  });

  it('says when the free window ended and what cancelling costs now', () => {
    expect(renterCancellationPolicy(paid, new Date('2030-02-28T08:00:00Z'))).toBe(`Free cancellation ended Thu 28 Feb, 09:00. Cancelling now costs ${formatRand(225)}; the rest is refunded.`);
  });

  it('reads a confirmed trip waiting for payment as paid now', () => {
    expect(renterCancellationPolicy(makeBooking({ status: 'confirmed' }), NOW)).toBe(freeUntilThursday);
  });

  it('says nothing of a request, a started, completed or cancelled trip', () => {
    expect(renterCancellationPolicy(makeBooking({ status: 'pending' }), NOW)).toBeNull();
    expect(renterCancellationPolicy(paid, new Date('2030-03-01T07:00:00Z'))).toBeNull();
    expect(renterCancellationPolicy({ ...paid, status: 'completed' }, NOW)).toBeNull();
    expect(renterCancellationPolicy({ ...paid, status: 'cancelled' }, NOW)).toBeNull();
  });

  describe('on the card', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('is shown to the renter, not to the host', () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(NOW);
      const { unmount } = render(<BookingCancellationPolicy booking={paid} role="owner" />);
      expect(screen.queryByRole('region', { name: 'Cancellation policy' })).not.toBeInTheDocument();
      unmount();
      render(<BookingCancellationPolicy booking={paid} role="renter" />);
      // The policy's rule, then the Consumer Protection Act s. 17 one (issue 34: "the policy text says so").
      expect(screen.getByRole('region', { name: 'Cancellation policy' }).textContent).toBe(`Cancellation policy${freeUntilThursday}${CPA_WAIVER_POLICY}`);
      expect(CPA_WAIVER_POLICY).toMatch(/^No cancellation fee is kept if you, or a member of your immediate family, died or were admitted to hospital \(Consumer Protection Act, section 17\)/);
    });
  });
});
