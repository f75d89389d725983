// A purchase's PDF receipt, drawn with pdf-lib as the certificates' PDFs are (modules/certificates/
// pdf.ts): one A4 page with the seller, the receipt's number and the same labelled figures as the
// receipt mail (receipts.ts, receiptRows), in the buyer's language. Amounts are written with the
// currency's code (INR 1,499.00): the standard PDF fonts have no rupee sign.
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { mailLanguage, mailTranslator } from '../../infrastructure/mail-text';
import { writable } from '../certificates';
import { receiptRows, type ReceiptFacts } from './receipts';

const A4: [number, number] = [595.28, 841.89];
const ink = rgb(0.12, 0.14, 0.2);
const muted = rgb(0.38, 0.41, 0.48);
const accent = rgb(0.11, 0.39, 0.75);
const line = rgb(0.88, 0.9, 0.93);

/** Money as the PDF writes it: the code, then the amount in the reader's digits. */
function pdfMoney(amount: number, currency: string, language: string | null): string {
  const format = new Intl.NumberFormat(mailLanguage(language), { style: 'currency', currency, currencyDisplay: 'code' });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2)).replace(/\u00a0|\u202f/g, ' ');
}

export async function receiptPdf(facts: ReceiptFacts): Promise<Uint8Array> {
  const language = facts.buyer.language;
  const t = mailTranslator(language);
  const doc = await PDFDocument.create();
  const title = t('receipt.pdfTitle', { number: facts.receiptNumber });
  doc.setTitle(title);
  doc.setAuthor(facts.seller.name);
  doc.setCreator('Mooz');
  doc.setProducer('Mooz');
  const when = facts.paidAt ?? new Date(0);
  doc.setCreationDate(when);
  doc.setModificationDate(when);
  const page = doc.addPage(A4);
  const [width, height] = A4;
  const sans = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const margin = 56;

  page.drawRectangle({ x: 0, y: height - 8, width, height: 8, color: accent });
  page.drawText(writable(bold, facts.seller.name) || 'Mooz', { x: margin, y: height - 70, size: 22, font: bold, color: accent });
  let y = height - 90;
  for (const part of [facts.seller.address, facts.seller.taxId ? t('receipt.taxId', { id: facts.seller.taxId }) : '']) {
    if (!part) continue;
    page.drawText(writable(sans, part), { x: margin, y, size: 10, font: sans, color: muted, maxWidth: width / 2 });
    y -= 14;
  }
  const heading = writable(bold, t(facts.refundedAt ? 'receipt.pdfHeadingRefunded' : 'receipt.pdfHeading'));
  page.drawText(heading, { x: width - margin - bold.widthOfTextAtSize(heading, 20), y: height - 70, size: 20, font: bold, color: ink });
  const number = facts.receiptNumber;
  page.drawText(number, { x: width - margin - sans.widthOfTextAtSize(number, 11), y: height - 90, size: 11, font: sans, color: muted });

  y = height - 160;
  const labelWidth = 150;
  for (const row of receiptRows(facts, language, (amount) => pdfMoney(amount, facts.currency, language))) {
    const font = row.strong ? bold : sans;
    const size = row.strong ? 13 : 11;
    page.drawText(writable(sans, row.label), { x: margin, y, size: 10, font: sans, color: muted });
    // Long values (the buyer, the seller) wrap inside the column.
    const value = writable(font, row.value) || '-';
    const words = value.split(' ');
    const lines: string[] = [];
    let current = '';
    for (const word of words) {
      const next = current ? `${current} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) > width - 2 * margin - labelWidth && current) {
        lines.push(current);
        current = word;
      } else current = next;
    }
    lines.push(current);
    for (const [i, text] of lines.entries()) page.drawText(text, { x: margin + labelWidth, y: y - i * (size + 3), size, font, color: ink });
    y -= lines.length * (size + 3) + 9;
    page.drawLine({ start: { x: margin, y: y + 4 }, end: { x: width - margin, y: y + 4 }, thickness: 0.6, color: line });
    y -= 8;
  }
  const thanks = writable(sans, t('receipt.pdfThanks'));
  page.drawText(thanks, { x: margin, y: y - 20, size: 11, font: sans, color: ink, maxWidth: width - 2 * margin });
  const foot = writable(sans, t('receipt.pdfFoot'));
  page.drawText(foot, { x: margin, y: 48, size: 9, font: sans, color: muted, maxWidth: width - 2 * margin });
  return doc.save();
}

export const receiptFileName = (facts: Pick<ReceiptFacts, 'receiptNumber'>) => `Receipt ${facts.receiptNumber}.pdf`;
