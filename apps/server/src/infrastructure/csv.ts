// CSV as RFC 4180 writes it (CRLF rows, a field quoted when it holds a comma, a quote or a line break,
// its quotes doubled), made safe to open in a spreadsheet: a text cell that starts like a formula
// (= + - @, or a tab or carriage return that some programs skip before one) gets a leading ' so it
// stays text (OWASP's advice against CSV injection). A UTF-8 byte order mark lets Excel read names
// in any script.

const formulaStart = /^[=+\-@\t\r]/;

export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = formulaStart.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: (string | number | null | undefined)[][]): string {
  return `\uFEFF${[header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** A file name's slug of a title: ASCII letters and digits joined by '-' (accents dropped), at most 60 long; `fallback` when nothing is left. */
export function fileSlug(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug || fallback;
}

/** A Content-Disposition for a download: an ASCII name for old clients, the exact one (RFC 5987) for the rest. */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
