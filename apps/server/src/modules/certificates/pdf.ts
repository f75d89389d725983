// A certificate's PDF, drawn by the server with pdf-lib: one A4 landscape page with a double border,
// the product's name, "Certificate of completion", the student's name large, the course, the batch's
// dates, the teacher, the issue date, the certificate's id and the address of its verification page.
// The standard PDF fonts encode WinAnsi only (Latin-1 and a few more): a name in Greek or Chinese is
// written with what they can show (accents stripped where that helps, '?' for the rest) rather than
// failing. The verification page shows the name as it is.
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

interface CertificateContent {
  id: string;
  studentName: string;
  courseName: string;
  teacherName: string;
  /** YYYY-MM-DD, or null (a certificate awarded for a purchase without dates). */
  startDate: string | null;
  endDate: string | null;
  issuedAt: Date;
  kind: 'earned' | 'awarded';
  /** The absolute address of the public verification page. */
  verifyUrl: string;
}

const A4_LANDSCAPE: [number, number] = [841.89, 595.28];
const ink = rgb(0.12, 0.14, 0.2);
const muted = rgb(0.38, 0.41, 0.48);
const accent = rgb(0.13, 0.4, 0.75);
const gold = rgb(0.72, 0.56, 0.22);

/**
 * The text as the font can write it: each character it has is kept; one it lacks is tried without its
 * accents (ő → o), else replaced by '?'. Line breaks and other controls become spaces.
 */
export function writable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  let out = '';
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) {
      out += ' ';
      continue;
    }
    if (known.has(code)) {
      out += char;
      continue;
    }
    const bare = char.normalize('NFD').replace(/\p{M}+/gu, '');
    out += bare && [...bare].every((c) => known.has(c.codePointAt(0)!)) ? bare : '?';
  }
  return out.replace(/\s+/g, ' ').trim();
}

const longDate = (date: Date) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
const dayOf = (isoDay: string) => longDate(new Date(`${isoDay}T00:00:00Z`));

/** The dates line: "6 April 2026 – 10 April 2026" (an en dash is in WinAnsi). */
export function datesLine(startDate: string | null, endDate: string | null): string | null {
  if (startDate && endDate) return `${dayOf(startDate)} – ${dayOf(endDate)}`;
  if (endDate) return `Completed ${dayOf(endDate)}`;
  if (startDate) return `From ${dayOf(startDate)}`;
  return null;
}

/** Draws `text` centred on the page at `y`, shrinking it until it fits `maxWidth`. */
function centred(page: PDFPage, text: string, y: number, font: PDFFont, size: number, color = ink, maxWidth = 640) {
  let fitted = size;
  while (fitted > 10 && font.widthOfTextAtSize(text, fitted) > maxWidth) fitted -= 1;
  // Still too long at the smallest size: cut it, with an ellipsis.
  let shown = text;
  while (shown.length > 1 && font.widthOfTextAtSize(shown, fitted) > maxWidth) shown = `${shown.slice(0, -2).trimEnd()}…`;
  const width = font.widthOfTextAtSize(shown, fitted);
  page.drawText(shown, { x: (page.getWidth() - width) / 2, y, size: fitted, font, color });
}

export async function certificatePdf(content: CertificateContent): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const title = `Certificate ${content.id}`;
  doc.setTitle(title);
  doc.setAuthor('Mooz');
  doc.setSubject(`Certificate of completion: ${content.courseName}`);
  doc.setCreator('Mooz');
  doc.setProducer('Mooz');
  doc.setCreationDate(content.issuedAt);
  doc.setModificationDate(content.issuedAt);

  const page = doc.addPage(A4_LANDSCAPE);
  const [width, height] = A4_LANDSCAPE;
  const serif = await doc.embedFont(StandardFonts.TimesRoman);
  const serifBold = await doc.embedFont(StandardFonts.TimesRomanBold);
  const serifItalic = await doc.embedFont(StandardFonts.TimesRomanBoldItalic);
  const sans = await doc.embedFont(StandardFonts.Helvetica);
  const sansBold = await doc.embedFont(StandardFonts.HelveticaBold);

  // Borders: a strong outer frame, a thin gold inner one.
  page.drawRectangle({ x: 0, y: 0, width, height, color: rgb(0.99, 0.985, 0.97) });
  page.drawRectangle({ x: 22, y: 22, width: width - 44, height: height - 44, borderColor: accent, borderWidth: 5 });
  page.drawRectangle({ x: 34, y: 34, width: width - 68, height: height - 68, borderColor: gold, borderWidth: 1.2 });
  // Corner marks inside the inner frame.
  for (const [x, y] of [
    [44, 44],
    [width - 52, 44],
    [44, height - 52],
    [width - 52, height - 52],
  ] as const) {
    page.drawRectangle({ x, y, width: 8, height: 8, color: gold });
  }

  centred(page, 'Mooz', height - 92, sansBold, 22, accent);
  centred(page, 'Certificate of completion', height - 150, serifBold, 38, ink);
  page.drawLine({ start: { x: width / 2 - 90, y: height - 166 }, end: { x: width / 2 + 90, y: height - 166 }, thickness: 1.2, color: gold });

  centred(page, 'This certifies that', height - 205, serif, 15, muted);
  centred(page, writable(serifItalic, content.studentName) || '?', height - 255, serifItalic, 42, ink);
  centred(page, content.kind === 'earned' ? 'has completed the course' : 'has been awarded this certificate for the course', height - 292, serif, 15, muted);
  centred(page, writable(sansBold, content.courseName) || '?', height - 330, sansBold, 24, accent);
  const dates = datesLine(content.startDate, content.endDate);
  if (dates) centred(page, dates, height - 360, sans, 13, muted);

  // Teacher (left) and issue date (right), each over a rule, as signatures are.
  const columnY = 150;
  const columns: [number, string, string][] = [
    [width * 0.28, writable(serifBold, content.teacherName) || '?', 'Teacher'],
    [width * 0.72, longDate(content.issuedAt), 'Date of issue'],
  ];
  for (const [centre, value, label] of columns) {
    let size = 16;
    while (size > 9 && serifBold.widthOfTextAtSize(value, size) > 220) size -= 1;
    page.drawText(value, { x: centre - serifBold.widthOfTextAtSize(value, size) / 2, y: columnY, size, font: serifBold, color: ink });
    page.drawLine({ start: { x: centre - 115, y: columnY - 10 }, end: { x: centre + 115, y: columnY - 10 }, thickness: 0.8, color: muted });
    page.drawText(label, { x: centre - sans.widthOfTextAtSize(label, 10) / 2, y: columnY - 26, size: 10, font: sans, color: muted });
  }

  // The id and where to check it.
  centred(page, `Certificate ID: ${content.id}`, 78, sansBold, 11, ink);
  centred(page, `Verify at ${writable(sans, content.verifyUrl)}`, 62, sans, 9.5, muted, 700);

  return doc.save();
}

/** The file name of the download: the course and the student, without what file systems refuse. */
export function certificateFileName(content: Pick<CertificateContent, 'id' | 'courseName' | 'studentName'>): string {
  const clean = (text: string) =>
    text
      .normalize('NFC')
      .replace(/[<>:"/\\|?*]+/g, ' ')
      .replace(/\p{Cc}+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^\.+|\.+$/g, '');
  const base = [clean(content.courseName), clean(content.studentName)].filter(Boolean).join(' - ').slice(0, 120).trim();
  return `Certificate - ${base || content.id}.pdf`;
}
