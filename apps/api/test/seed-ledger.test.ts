// The demo seed's money is in the ledger (issue 20; docs/decisions/039-one-ledger.md): each paid
// demo booking has the sandbox's successful charge under its payment reference (so the sandbox can
// refund it) and its charge and shares in the ledger when it was paid; each payout marked paid is a
// ledger payout. The money screens then show the demo's stored figures.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminFinance } from '@karoo/shared';
import { DEMO_PASSWORD, seedDemo } from '../src/db/seed';
import { authHeader, createTestApp, expectOk, login, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  await seedDemo(t.ctx, t.db);
});
afterAll(async () => {
  await t?.close();
});

describe('the demo seed records its money in the ledger', () => {
  it('every paid demo booking: a sandbox charge under its reference, its charge and shares in the ledger; payouts marked paid are ledger payouts; Finance shows the stored figures', async () => {
    const paid = await t.db.selectFrom('bookings').selectAll().where('payment_status', '=', 'paid').execute();
    expect(paid.length).toBeGreaterThan(5);
    const payments = await t.db.selectFrom('payments').selectAll().execute();
    const entries = await t.db.selectFrom('ledger_entries').selectAll().execute();
    for (const b of paid) {
      expect(payments.find((p) => p.reference === b.payment_reference), b.booking_number).toMatchObject({ booking_id: b.id, provider: 'sandbox', status: 'success', amount_cents: b.total_price_cents });
      const mine = entries.filter((e) => e.booking_id === b.id);
      const sum = (kind: string) => mine.filter((e) => e.kind === kind).reduce((a, e) => a + Number(e.amount_cents), 0);
      expect(sum('charge'), b.booking_number).toBe(b.total_price_cents);
      expect(sum('host_earning')).toBe(b.car_owner_earnings_cents);
      expect(sum('platform_fee')).toBe(b.app_fee_cents);
      expect(sum('payout')).toBe(b.payout_status === 'paid' ? b.car_owner_earnings_cents : 0);
      expect(mine.find((e) => e.kind === 'charge')!.moved_at).toEqual(b.paid_at);
    }

    const headers = authHeader(await login(t.app, 'admin', DEMO_PASSWORD));
    const finance = expectOk<AdminFinance>(await t.app.inject({ method: 'GET', url: '/api/earnings/admin/finance', headers }));
    const stored = (pick: (b: (typeof paid)[number]) => number) => paid.reduce((a, b) => a + pick(b), 0) / 100;
    expect(finance.totals).toMatchObject({
      gross: stored((b) => b.total_price_cents),
      charged: stored((b) => b.total_price_cents),
      host_earnings: stored((b) => b.car_owner_earnings_cents),
      platform_revenue: stored((b) => b.app_fee_cents),
      paid_out: stored((b) => (b.payout_status === 'paid' ? b.car_owner_earnings_cents : 0)),
      bookings: paid.length,
    });
    const owed = finance.payouts.reduce((a, p) => a + Math.round(p.amount_owed * 100), 0);
    expect(owed).toBe(paid.filter((b) => b.status === 'completed' && b.payout_status !== 'paid').reduce((a, b) => a + b.car_owner_earnings_cents, 0));
  });

  it('the sandbox refunds a seeded charge (its books hold the charge), and never more than it', async () => {
    const b = await t.db.selectFrom('bookings').selectAll().where('payment_status', '=', 'paid').where('status', '=', 'active').executeTakeFirstOrThrow();
    const refund = { reference: b.payment_reference!, reason: 'Demo refund', refundId: randomUUID() };
    await expect(t.ctx.payments.refund({ ...refund, amountCents: 1000 })).resolves.toMatchObject({ id: expect.any(String) });
    await expect(t.ctx.payments.refund({ ...refund, refundId: randomUUID(), amountCents: b.total_price_cents })).rejects.toThrow(/more than/);
  });
});
