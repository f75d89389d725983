// Intl's formatters, made once for each locale and set of options: making one costs far more than using
// it, and a list of courses or a dashboard formats hundreds of dates and numbers on its first draw.
// A formatter that cannot be made (an unknown currency or time zone) throws each time, as Intl does.
const made = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let formatter = made.get(key) as T | undefined;
  if (!formatter) {
    formatter = make();
    made.set(key, formatter);
  }
  return formatter;
}

export const dateTimeFormat = (locale: string | undefined, options: Intl.DateTimeFormatOptions = {}) =>
  cached(`date ${locale ?? ''} ${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));

export const numberFormat = (locale: string | undefined, options: Intl.NumberFormatOptions = {}) =>
  cached(`number ${locale ?? ''} ${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));

/** The viewer's IANA time zone ("Asia/Kolkata"), UTC where the browser does not say. */
export function viewerTimeZone(): string {
  try {
    return dateTimeFormat(undefined).resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
