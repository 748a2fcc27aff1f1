// How a claim's payment is spread over its lines (decisions 065 and 073), worked by hand: the
// deposit first, then the card, each line shared as its kind says; and a card payment made later
// (the payment link) shares each line so that, with the rows its settlement recorded, the line is
// shared as one payment would have been (one rounding per line, not two).
import { describe, expect, it } from 'vitest';
import { spreadLaterCardPayment, spreadOverLines } from '../src/modules/trips/trip-claims.service';

describe('spreading a claim over its lines', () => {
  const lines = [
    { kind: 'damage' as const, amount_cents: 330_000 },
    { kind: 'cleaning' as const, amount_cents: 40_000 },
    { kind: 'tolls' as const, amount_cents: 30_000 },
  ];

  it('takes the deposit first in the lines’ order, then the card; tolls pass to the host whole', () => {
    expect(spreadOverLines(lines, 400_000, 350_000, 50_000, 15)).toEqual([
      { kind: 'damage', fromDepositCents: 330_000, fromCardCents: 0, hostCents: 280_500, platformCents: 49_500 },
      { kind: 'cleaning', fromDepositCents: 20_000, fromCardCents: 20_000, hostCents: 34_000, platformCents: 6_000 },
      { kind: 'tolls', fromDepositCents: 0, fromCardCents: 30_000, hostCents: 30_000, platformCents: 0 },
    ]);
    // The card declined: only the deposit's part, and the tolls get nothing.
    expect(spreadOverLines(lines, 400_000, 350_000, 0, 15).map((l) => l.kind)).toEqual(['damage', 'cleaning']);
  });

  it('paid later by card, adds to each line what one payment would have shared', () => {
    expect(spreadLaterCardPayment(lines, 400_000, 350_000, 0, 50_000, 15)).toEqual([
      { kind: 'cleaning', fromDepositCents: 0, fromCardCents: 20_000, hostCents: 17_000, platformCents: 3_000 },
      { kind: 'tolls', fromDepositCents: 0, fromCardCents: 30_000, hostCents: 30_000, platformCents: 0 },
    ]);
  });

  it('rounds once per line: R 200,06 of cleaning, half from the deposit, half later by card', () => {
    const cleaning = [{ kind: 'cleaning' as const, amount_cents: 20_006 }];
    // The deposit's half: 15 % of R 100,03 = 1 500,45 c, so R 15,00 to the platform.
    expect(spreadOverLines(cleaning, 20_006, 10_003, 0, 15)).toEqual([{ kind: 'cleaning', fromDepositCents: 10_003, fromCardCents: 0, hostCents: 8_503, platformCents: 1_500 }]);
    // The whole line: 15 % of R 200,06 = 3 000,9 c, so R 30,01; the card's half takes R 15,01 (not R 15,00 again).
    expect(spreadLaterCardPayment(cleaning, 20_006, 10_003, 0, 10_003, 15)).toEqual([{ kind: 'cleaning', fromDepositCents: 0, fromCardCents: 10_003, hostCents: 8_502, platformCents: 1_501 }]);
  });
});
