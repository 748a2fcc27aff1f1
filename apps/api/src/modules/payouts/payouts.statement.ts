// A host's payout statement of one Johannesburg month (PDF, pdfkit as the receipts are): every
// transfer made that month with its state, reference, bank account and trips, and the month's
// totals paid, failed and reversed: each figure the transfer's own amount, which is the sum of its
// payout rows in the ledger.
import { formatMoment, formatRand, monthIn, startOfDay, TRANSFER_STATE_LABELS } from '@karoo/shared';
import PDFDocument from 'pdfkit';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { forbidden } from '../../lib/app-error';
import { hostBalanceCents } from '../ledger';
import * as repo from './payouts.repository';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

export async function statementPdf(ctx: AppContext, user: UserRow, month: string): Promise<Buffer> {
  if (user.role !== 'host' && user.role !== 'admin') throw forbidden('Only hosts have payout statements.');
  const start = startOfDay(`${month}-01`);
  const end = startOfDay(`${nextMonth(month)}-01`);
  const transfers = (await repo.transfersOfHost(ctx.db, user.id, 1000)).filter((t) => t.created_at >= start && t.created_at < end).reverse();
  const now = ctx.clock.now();
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `Karoo payout statement ${month}`, Author: 'Karoo' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const [y, m] = month.split('-').map(Number) as [number, number];
  doc.font('Helvetica-Bold').fontSize(20).fillColor('#0f172a').text('Karoo', 50, 50);
  doc.font('Helvetica-Bold').fontSize(16).fillColor('#b45309').text('Payout statement', 300, 52, { width: 245, align: 'right' });
  doc.font('Helvetica').fontSize(10).fillColor('#334155').text(`${MONTHS[m - 1]} ${y}`, 300, 74, { width: 245, align: 'right' });
  doc.font('Helvetica-Bold').fontSize(11).fillColor('#0f172a').text(user.full_name || user.username, 50, 110);
  doc.font('Helvetica').fontSize(9).fillColor('#475569').text(`@${user.username} · issued ${formatMoment(now, now)}`, 50, 126);

  const sum = (states: string[]) => transfers.filter((t) => states.includes(t.state)).reduce((s, t) => s + t.amount_cents, 0);
  const totals: [string, number][] = [
    ['Paid into your account', sum(['success'])],
    ['Sent, not yet confirmed', sum(['queued', 'otp', 'pending'])],
    // A failed or reversed transfer's money stays owed and goes in a later transfer (a Retry, or the
    // next run), which is listed in its own month: these say what failed, not what is still owed.
    ['Failed (the money stayed owed to you and is sent again)', sum(['failed'])],
    ['Reversed by the bank (the money stayed owed to you and is sent again)', sum(['reversed'])],
    // What is owed now is the ledger's balance (decision 039), not a figure worked from the month.
    [`Owed to you on ${formatMoment(now, now)}, not yet sent`, Math.max(0, await hostBalanceCents(ctx.db, user.id))],
  ];
  let yPos = 160;
  for (const [label, cents] of totals) {
    doc.font('Helvetica').fontSize(10).fillColor('#334155').text(label, 50, yPos, { width: 350 });
    doc.font('Helvetica-Bold').text(formatRand(cents / 100), 400, yPos, { width: 145, align: 'right' });
    yPos += 18;
  }
  yPos += 14;
  doc.moveTo(50, yPos).lineTo(545, yPos).strokeColor('#cbd5e1').stroke();
  yPos += 10;
  doc.font('Helvetica-Bold').fontSize(8).fillColor('#64748b');
  doc.text('DATE', 50, yPos).text('REFERENCE', 150, yPos).text('STATE', 330, yPos).text('AMOUNT', 445, yPos, { width: 100, align: 'right' });
  yPos += 16;
  if (transfers.length === 0) {
    doc.font('Helvetica').fontSize(10).fillColor('#475569').text('No payouts were sent this month.', 50, yPos);
  }
  for (const t of transfers) {
    if (yPos > 760) {
      doc.addPage();
      yPos = 50;
    }
    doc.font('Helvetica').fontSize(9.5).fillColor('#0f172a');
    doc.text(formatMoment(t.created_at, now), 50, yPos, { width: 95 });
    doc.text(t.reference, 150, yPos, { width: 175 });
    doc.text(TRANSFER_STATE_LABELS[t.state], 330, yPos, { width: 110 });
    doc.font('Helvetica-Bold').text(formatRand(t.amount_cents / 100), 445, yPos, { width: 100, align: 'right' });
    yPos += 14;
    const detail = `${t.bank_name} ····${t.account_number_last4} · trips ${t.bookings.map((b) => b.number).join(', ')}${t.failure_reason ? ` · ${t.failure_reason}` : ''}`;
    doc.font('Helvetica').fontSize(8).fillColor('#64748b').text(detail, 150, yPos, { width: 395 });
    yPos = doc.y + 10;
  }
  doc.font('Helvetica').fontSize(7.5).fillColor('#94a3b8').text(`Karoo · statement of ${monthIn(start)} · amounts in South African rand`, 50, 800, { width: 495, align: 'center', lineBreak: false });
  doc.end();
  return done;
}
