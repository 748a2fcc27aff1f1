// Lays a Statement (receipt-statement.ts) out as an A4 PDF with pdfkit (decision 040): the company
// letterhead, the document's number and date, the parties, the trip, then each section as rows of
// a description and a right-aligned amount, the VAT line and a footer on every page. It decides no
// figure: every amount arrives in the statement, already summed from the ledger.
import PDFDocument from 'pdfkit';
import { formatCents, type Statement, type StatementLine, type StatementSection } from './receipt-statement';

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = { top: 48, bottom: 64, left: 48, right: 48 };
const CONTENT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;
const AMOUNT_WIDTH = 130;
const LABEL_WIDTH = CONTENT_WIDTH - AMOUNT_WIDTH - 16;
const RIGHT = PAGE.width - MARGIN.right;

// The web app's palette (apps/web/src/index.css): terracotta brand on stone neutrals.
const COLOR = {
  brand: '#c2410c',
  brandSoft: '#fed7aa',
  brandTint: '#fff7ed',
  ink: '#1c1917',
  text: '#44403c',
  muted: '#78716c',
  rule: '#e7e5e4',
  panel: '#fafaf9',
};

const FONT = { regular: 'Helvetica', bold: 'Helvetica-Bold' };

type Doc = PDFKit.PDFDocument;

/** The Karoo mark of favicon.svg (a road under a hill), drawn at `size` points. */
function drawLogo(doc: Doc, x: number, y: number, size: number): void {
  const s = size / 64;
  doc.save();
  doc.translate(x, y).scale(s);
  doc.roundedRect(0, 0, 64, 64, 14).fill(COLOR.brand);
  doc.path('M14 40c6-12 14-18 24-18 6 0 10 2 12 4').lineWidth(5).lineCap('round').stroke(COLOR.brandSoft);
  doc.moveTo(12, 46).lineTo(52, 46).lineWidth(5).lineCap('round').stroke('#ffffff');
  doc.restore();
}

/** The letterhead: logo and company on the left, the document's title, number and dates on the right. */
function drawHeader(doc: Doc, st: Statement): void {
  const top = MARGIN.top;
  drawLogo(doc, MARGIN.left, top, 30);
  doc.font(FONT.bold).fontSize(20).fillColor(COLOR.ink).text('Karoo', MARGIN.left + 40, top + 5, { lineBreak: false });

  const companyWidth = 250;
  let y = top + 44;
  doc.font(FONT.bold).fontSize(9).fillColor(COLOR.ink).text(st.company.name, MARGIN.left, y, { width: companyWidth });
  y = doc.y + 1;
  doc.font(FONT.regular).fontSize(8.5).fillColor(COLOR.text);
  const companyLines = [
    `Company registration no. ${st.company.registration}`,
    st.company.address,
    st.company.vatNumber ? `VAT registration no. ${st.company.vatNumber}` : 'Not registered for VAT',
    st.company.website,
  ];
  for (const line of companyLines) {
    doc.text(line, MARGIN.left, y, { width: companyWidth });
    y = doc.y + 1;
  }
  const leftBottom = y;

  const metaX = RIGHT - 220;
  doc.font(FONT.bold).fontSize(20).fillColor(COLOR.brand).text(st.title, metaX, top + 2, { width: 220, align: 'right' });
  let metaY = doc.y + 10;
  const meta: [string, string][] = [
    [st.kind === 'receipt' ? 'Receipt no.' : 'Invoice no.', st.number],
    ...(st.replaces ? ([['Replaces', st.replaces]] as [string, string][]) : []),
    ['Date issued', st.issuedAt],
    ['Booking no.', st.bookingNumber],
  ];
  for (const [label, value] of meta) {
    doc.font(FONT.regular).fontSize(8.5).fillColor(COLOR.muted).text(label, metaX, metaY, { width: 80 });
    doc.font(FONT.bold).fontSize(9).fillColor(COLOR.ink).text(value, metaX + 80, metaY, { width: 140, align: 'right' });
    metaY = doc.y + 4;
  }

  doc.y = Math.max(leftBottom, metaY) + 12;
  rule(doc, COLOR.ink, 1);
  doc.y += 16;
}

function rule(doc: Doc, color: string, width = 0.6): void {
  doc.moveTo(MARGIN.left, doc.y).lineTo(RIGHT, doc.y).lineWidth(width).strokeColor(color).stroke();
}

/** A small uppercase caption above a block. */
function caption(doc: Doc, text: string, x: number, y: number, width: number): void {
  doc.font(FONT.bold).fontSize(7.5).fillColor(COLOR.muted).text(text.toUpperCase(), x, y, { width, characterSpacing: 0.6 });
}

function drawParties(doc: Doc, st: Statement): void {
  const top = doc.y;
  const columnWidth = CONTENT_WIDTH / 2;
  let bottom = top;
  st.parties.forEach((party, i) => {
    const x = MARGIN.left + i * columnWidth;
    caption(doc, party.label, x, top, columnWidth - 12);
    doc.font(FONT.bold).fontSize(11).fillColor(COLOR.ink).text(party.name, x, doc.y + 3, { width: columnWidth - 12 });
    bottom = Math.max(bottom, doc.y);
  });
  doc.y = bottom + 16;
}

/** The trip in a light panel: two columns of label and value, then the wide items across it. */
function drawTrip(doc: Doc, st: Statement): void {
  const padding = 12;
  const labelWidth = 72;
  const columnWidth = (CONTENT_WIDTH - padding * 2) / 2;
  const valueWidth = (wide: boolean | undefined) => (wide ? CONTENT_WIDTH - padding * 2 : columnWidth - 8) - labelWidth;
  const rowHeight = (item: Statement['trip'][number]) => {
    doc.font(FONT.regular).fontSize(9);
    return Math.max(12, doc.heightOfString(item.value, { width: valueWidth(item.wide) })) + 5;
  };
  const narrow = st.trip.filter((item) => !item.wide);
  const wide = st.trip.filter((item) => item.wide);
  const half = Math.ceil(narrow.length / 2);
  const columns = [narrow.slice(0, half), narrow.slice(half)];
  const columnsHeight = Math.max(...columns.map((items) => items.reduce((h, item) => h + rowHeight(item), 0)));
  const wideHeight = wide.reduce((h, item) => h + rowHeight(item), 0);
  const top = doc.y;
  const height = padding * 2 + 14 + columnsHeight + wideHeight;
  doc.roundedRect(MARGIN.left, top, CONTENT_WIDTH, height, 6).lineWidth(0.6).fillAndStroke(COLOR.panel, COLOR.rule);
  caption(doc, 'The trip', MARGIN.left + padding, top + padding, CONTENT_WIDTH);
  const drawItem = (item: Statement['trip'][number], x: number, y: number) => {
    doc.font(FONT.regular).fontSize(8.5).fillColor(COLOR.muted).text(item.label, x, y, { width: labelWidth });
    doc.font(FONT.regular).fontSize(9).fillColor(COLOR.ink).text(item.value, x + labelWidth, y, { width: valueWidth(item.wide) });
  };
  const firstRow = top + padding + 14;
  columns.forEach((items, c) => {
    let y = firstRow;
    for (const item of items) {
      drawItem(item, MARGIN.left + padding + c * columnWidth, y);
      y += rowHeight(item);
    }
  });
  let y = firstRow + columnsHeight;
  for (const item of wide) {
    drawItem(item, MARGIN.left + padding, y);
    y += rowHeight(item);
  }
  doc.y = top + height + 16;
}

/** Starts a new page when `height` more points would run into the footer. */
function ensureRoom(doc: Doc, height: number): void {
  if (doc.y + height > PAGE.height - MARGIN.bottom) {
    doc.addPage();
    doc.y = MARGIN.top;
  }
}

function lineHeight(doc: Doc, line: StatementLine): number {
  doc.font(FONT.regular).fontSize(9.5);
  let h = doc.heightOfString(line.label, { width: LABEL_WIDTH });
  if (line.detail) {
    doc.fontSize(8);
    h += 2 + doc.heightOfString(line.detail, { width: LABEL_WIDTH });
  }
  return h + 8;
}

function drawLine(doc: Doc, line: StatementLine, strong: boolean): void {
  const height = lineHeight(doc, line);
  ensureRoom(doc, height);
  const top = doc.y;
  if (strong) {
    rule(doc, COLOR.ink, 0.8);
  }
  const y = top + 4;
  doc.font(strong ? FONT.bold : FONT.regular).fontSize(strong ? 10 : 9.5).fillColor(COLOR.ink).text(line.label, MARGIN.left, y, { width: LABEL_WIDTH });
  if (line.detail) {
    doc.font(FONT.regular).fontSize(8).fillColor(COLOR.muted).text(line.detail, MARGIN.left, doc.y + 2, { width: LABEL_WIDTH });
  }
  doc
    .font(strong ? FONT.bold : FONT.regular)
    .fontSize(strong ? 10 : 9.5)
    .fillColor(line.excluded ? COLOR.muted : COLOR.ink)
    .text(formatCents(line.cents), RIGHT - AMOUNT_WIDTH, y, { width: AMOUNT_WIDTH, align: 'right' });
  doc.y = top + height;
  if (!strong) {
    rule(doc, COLOR.rule);
  }
}

function drawSection(doc: Doc, section: StatementSection): void {
  // A heading never sits alone at the foot of a page.
  ensureRoom(doc, 60);
  doc.font(FONT.bold).fontSize(11).fillColor(COLOR.ink).text(section.heading, MARGIN.left, doc.y, { width: LABEL_WIDTH });
  doc.font(FONT.bold).fontSize(7.5).fillColor(COLOR.muted).text('AMOUNT', RIGHT - AMOUNT_WIDTH, doc.y - 10, { width: AMOUNT_WIDTH, align: 'right', characterSpacing: 0.6 });
  doc.y += 4;
  rule(doc, COLOR.rule);
  if (section.lines.length === 0) {
    doc.font(FONT.regular).fontSize(9).fillColor(COLOR.muted).text('None', MARGIN.left, doc.y + 6, { width: LABEL_WIDTH });
    doc.y += 6;
  }
  for (const line of section.lines) drawLine(doc, line, false);
  if (section.total) drawLine(doc, section.total, true);
  if (section.note) {
    doc.font(FONT.regular).fontSize(8).fillColor(COLOR.muted).text(section.note, MARGIN.left, doc.y + 2, { width: CONTENT_WIDTH });
  }
  doc.y += 12;
}

/** The VAT line in a tinted box, then the notes, kept together. */
function drawClosing(doc: Doc, st: Statement): void {
  doc.font(FONT.bold).fontSize(8.5);
  const boxHeight = doc.heightOfString(st.vatLine, { width: CONTENT_WIDTH - 24 }) + 14;
  doc.font(FONT.regular).fontSize(8.5);
  const notesHeight = st.notes.reduce((h, note) => h + doc.heightOfString(note, { width: CONTENT_WIDTH }) + 3, 0);
  ensureRoom(doc, boxHeight + 10 + notesHeight);
  const top = doc.y;
  doc.roundedRect(MARGIN.left, top, CONTENT_WIDTH, boxHeight, 5).fill(COLOR.brandTint);
  doc.font(FONT.bold).fontSize(8.5).fillColor(COLOR.brand).text(st.vatLine, MARGIN.left + 12, top + 7, { width: CONTENT_WIDTH - 24 });
  doc.y = top + boxHeight + 10;
  for (const note of st.notes) {
    doc.font(FONT.regular).fontSize(8.5).fillColor(COLOR.text).text(note, MARGIN.left, doc.y, { width: CONTENT_WIDTH });
    doc.y += 3;
  }
}

/** The footer of every page: the company in one line, the currency and zone, the page count. */
function drawFooters(doc: Doc, st: Statement): void {
  const range = doc.bufferedPageRange();
  const company = [st.company.name, `Reg. no. ${st.company.registration}`, st.company.vatNumber ? `VAT no. ${st.company.vatNumber}` : null, st.company.website]
    .filter(Boolean)
    .join('  ·  ');
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // The footer sits in the bottom margin; pdfkit would start a new page for text there otherwise.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = PAGE.height - 44;
    doc.moveTo(MARGIN.left, y).lineTo(RIGHT, y).lineWidth(0.6).strokeColor(COLOR.rule).stroke();
    doc.font(FONT.regular).fontSize(7.5).fillColor(COLOR.muted);
    doc.text(company, MARGIN.left, y + 8, { width: CONTENT_WIDTH - 80, lineBreak: false });
    doc.text(`Page ${i - range.start + 1} of ${range.count}`, RIGHT - 80, y + 8, { width: 80, align: 'right', lineBreak: false });
    doc.text('Amounts in South African rand (ZAR). Times in South African Standard Time (Johannesburg).', MARGIN.left, y + 20, { width: CONTENT_WIDTH, lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
}

/** The statement as a PDF file. */
export function renderStatementPdf(st: Statement, createdAt: Date): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margins: MARGIN,
    bufferPages: true,
    lang: 'en-ZA',
    displayTitle: true,
    info: {
      Title: `${st.title} ${st.number}`,
      Author: st.company.name,
      Subject: `Booking ${st.bookingNumber}`,
      Creator: 'Karoo',
      CreationDate: createdAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  drawHeader(doc, st);
  drawParties(doc, st);
  drawTrip(doc, st);
  for (const section of st.sections) drawSection(doc, section);
  drawClosing(doc, st);
  drawFooters(doc, st);
  doc.end();
  return done;
}
