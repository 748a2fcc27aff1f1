// The CPA s. 17 waiver on a cancelled trip's card (issue 34; decisions 067, 074): the rule and the
// way to ask while a fee is kept; once approved, the heading says the fee was waived and the "ask"
// part of the rule is gone (the refund is on the card's refund lines).
import { CPA_WAIVER_POLICY, formatRand, type FeeWaiver } from '@karoo/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { mockFetch, ok } from '@/test/fixtures';
import { createTestQueryClient } from '@/test/render';
import { FeeWaiverPanel } from './fee-waiver-panel';

const waiver = (over: Partial<FeeWaiver>): FeeWaiver => ({
  id: 'w1',
  booking_id: 'b1',
  booking_number: 'KR000001AA',
  ground: 'hospital',
  person: 'family',
  statement: '',
  fee: 450,
  status: 'requested',
  decision_reason: null,
  decided_at: null,
  evidence_url: '/api/fee-waivers/w1/evidence',
  created_at: '2030-02-28T08:00:00.000Z',
  ...over,
});

function renderPanel(fee: number, waivers: FeeWaiver[]) {
  mockFetch({ 'GET /api/booking/b1/fee-waivers': ok(waivers) });
  const base = makeBooking({ id: 'b1', status: 'cancelled', payment_status: 'paid', cancel_cause: 'renter' });
  const booking = { ...base, money: { ...base.money, cancellation_fee: fee } };
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <FeeWaiverPanel booking={booking} />
    </QueryClientProvider>,
  );
}

describe('the cancellation fee waiver on a cancelled trip', () => {
  it('says the rule and offers to ask while the fee is kept', async () => {
    renderPanel(450, []);
    const panel = await screen.findByRole('region', { name: 'Cancellation fee waiver' });
    expect(within(panel).getByRole('heading', { name: 'Cancellation fee' })).toBeInTheDocument();
    expect(panel).toHaveTextContent(CPA_WAIVER_POLICY);
    expect(within(panel).getByRole('button', { name: `Ask for the ${formatRand(450)} fee back` })).toBeInTheDocument();
  });

  it('keeps the rule while a request waits, and offers no second one', async () => {
    renderPanel(450, [waiver({})]);
    const panel = await screen.findByRole('region', { name: 'Cancellation fee waiver' });
    expect(panel).toHaveTextContent(CPA_WAIVER_POLICY);
    expect(within(panel).getByTestId('fee-waiver-request')).toHaveTextContent('Asked: Karoo will look at it');
    expect(within(panel).queryByRole('button', { name: /^Ask for the/ })).not.toBeInTheDocument();
  });

  it('once approved, says the fee was waived, with Karoo’s reason, and no longer asks', async () => {
    renderPanel(0, [waiver({ status: 'approved', decision_reason: 'Hospital letter dated the day before.', decided_at: '2030-03-01T08:00:00.000Z' })]);
    const panel = await screen.findByRole('region', { name: 'Cancellation fee waiver' });
    expect(within(panel).getByRole('heading', { name: 'Cancellation fee waived (Consumer Protection Act, section 17)' })).toBeInTheDocument();
    expect(panel).not.toHaveTextContent(CPA_WAIVER_POLICY);
    const request = within(panel).getByTestId('fee-waiver-request');
    expect(request).toHaveTextContent('Approved: the fee is refunded to your card');
    expect(request).toHaveTextContent('Karoo: “Hospital letter dated the day before.”');
    expect(within(panel).queryByRole('button', { name: /^Ask for the/ })).not.toBeInTheDocument();
  });
});
