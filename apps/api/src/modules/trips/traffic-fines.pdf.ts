// The nomination of the driver (AARTO 07) as a PDF, pdfkit as the receipts and statements are
// (decision 066): the notice's particulars, the vehicle, the nominating owner (the host) and the
// driver (the renter of the trip the fine fell in) with the four particulars the form asks for
// (full name, ID number, licence number, address), the trip that shows who had the car, and the
// lines the host signs. Nothing else of the renter is printed (no phone, email or bank).
import { dateTimeOf, formatDay, formatMoment, formatRand, nominationDeadline } from '@karoo/shared';
import PDFDocument from 'pdfkit';
import type { NominationFacts } from './traffic-fines.service';

/** A moment in full, with its year, as a form wants it: "11 Mar 2030, 14:00" (Johannesburg). */
function fullMoment(instant: Date | string): string {
  const { date, time } = dateTimeOf(new Date(instant).getTime());
  return `${formatDay(date)}, ${time}`;
}

const MISSING = 'not held by Karoo: copy it from the driver’s licence before signing';

export function nominationPdf(facts: NominationFacts, now: Date): Promise<Buffer> {
  const { fine, car, trip, owner, driver } = facts;
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `AARTO 07 nomination ${fine.notice_number}`, Author: 'Karoo' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));

  doc.font('Helvetica-Bold').fontSize(20).fillColor('#0f172a').text('Karoo', 50, 50);
  doc.font('Helvetica-Bold').fontSize(14).fillColor('#b45309').text('AARTO 07: Nomination of driver', 250, 52, { width: 295, align: 'right' });
  doc.font('Helvetica').fontSize(9).fillColor('#475569').text(`Prepared ${formatMoment(now, now)} for the owner to sign`, 250, 72, { width: 295, align: 'right' });

  let y = 110;
  const section = (title: string) => {
    if (y > 700) {
      doc.addPage();
      y = 50;
    }
    doc.font('Helvetica-Bold').fontSize(11).fillColor('#0f172a').text(title, 50, y);
    y += 16;
    doc.moveTo(50, y).lineTo(545, y).strokeColor('#cbd5e1').stroke();
    y += 6;
  };
  const field = (label: string, value: string) => {
    doc.font('Helvetica').fontSize(9.5).fillColor('#475569').text(label, 50, y, { width: 170 });
    doc.font('Helvetica-Bold').fontSize(9.5).fillColor('#0f172a').text(value, 225, y, { width: 320 });
    y = Math.max(doc.y, y + 12) + 5;
  };

  section('1. Infringement notice (AARTO 03)');
  field('Notice number', fine.notice_number);
  field('Date and time', fullMoment(fine.occurred_at));
  field('Place', fine.place);
  field('Penalty', formatRand(fine.amount_cents / 100));
  field('Notice served on', formatDay(fine.served_on));
  field('Nominate by', `${formatDay(nominationDeadline(fine.served_on))} (32 days after service)`);

  y += 6;
  section('2. Vehicle');
  field('Licence number (plate)', car.plate);
  field('Make and model', `${car.make} ${car.model} (${car.year}), ${car.color}`);

  y += 6;
  section('3. Owner making the nomination');
  field('Full name', owner.full_name);
  field('Identity number', owner.id_number ?? '');
  field('Address', owner.address ?? '');

  y += 6;
  section('4. Driver nominated');
  field('Full name', driver.full_name);
  field('Identity number', driver.id_number ?? MISSING);
  field('Driving licence number', driver.driver_licence_number ?? MISSING);
  field('Address', driver.address ?? MISSING);
  field('Why this driver', `Renter of Karoo trip ${trip.bookingNumber}, who had the vehicle from ${fullMoment(trip.from)} to ${fullMoment(trip.to)} (check-in and check-out records, else the booked times).`);

  y += 6;
  section('5. Declaration and signature');
  doc.font('Helvetica').fontSize(9.5).fillColor('#334155').text(
    'I, the owner of the vehicle above, declare that at the time of the infringement the vehicle was driven by, or in the control of, the person nominated above, and that the particulars given are true. A legible copy of the driver’s identity document or driving licence is attached.',
    50,
    y,
    { width: 495 },
  );
  y = doc.y + 28;
  const line = (label: string, x: number, width: number) => {
    doc.moveTo(x, y).lineTo(x + width, y).strokeColor('#0f172a').stroke();
    doc.font('Helvetica').fontSize(8.5).fillColor('#475569').text(label, x, y + 4, { width });
  };
  line('Signature of the owner', 50, 220);
  line('Date', 300, 110);
  line('Place', 430, 115);
  y += 44;
  line('Full name of the owner (print)', 50, 220);
  line('Capacity (owner, or for a company: its proxy)', 300, 245);
  y += 40;
  doc.font('Helvetica').fontSize(8.5).fillColor('#475569').text(
    `Submit the signed form with the copy of the driver’s ID or licence on www.aarto.gov.za or to the Road Traffic Infringement Agency (RTIA) by ${formatDay(nominationDeadline(fine.served_on))}. Prepared by Karoo from the trip records for a lawful purpose (the AARTO Act, s. 17); keep it only as long as the nomination needs.`,
    50,
    y,
    { width: 495 },
  );
  doc.font('Helvetica').fontSize(7.5).fillColor('#94a3b8').text(`Karoo · nomination for notice ${fine.notice_number}`, 50, 780, { width: 495, align: 'center', lineBreak: false });
  doc.end();
  return done;
}
