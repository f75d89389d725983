// A time zone's wall clock at an instant, from the runtime's time-zone database (Intl), so that
// daylight-saving changes fall where they should. One formatter per zone: building one costs far more
// than asking it.
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(zone, format);
  }
  return format;
}

/** What the zone's clocks show at an instant, as a sortable `YYYY-MM-DDTHH:MM:SS`. */
export function wallClock(zone: string, at: number): string {
  const parts: Record<string, string> = {};
  for (const part of formatFor(zone).formatToParts(new Date(at))) parts[part.type] = part.value;
  return `${parts.year!.padStart(4, '0')}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms (whole seconds). */
export function zoneOffsetMs(zone: string, at: number): number {
  return Date.parse(`${wallClock(zone, at)}Z`) - Math.floor(at / 1000) * 1000;
}
