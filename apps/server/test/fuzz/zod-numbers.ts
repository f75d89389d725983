// Numbers for the fuzz test's generator: values inside a zod number schema's checks (int, bounds,
// multiples, formats such as int32), and the shape of a zod check it reads them from.
import fc from 'fast-check';

/** A zod check as its definition stores it (the fields the generator reads). */
export interface CheckDef {
  check: string;
  format?: string;
  pattern?: RegExp;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number | bigint;
  inclusive?: boolean;
  includes?: string;
  prefix?: string;
  suffix?: string;
  offset?: boolean;
  local?: boolean;
  precision?: number | null;
}

const formatBounds: Record<string, [number, number, boolean]> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, true],
  int32: [-(2 ** 31), 2 ** 31 - 1, true],
  uint32: [0, 2 ** 32 - 1, true],
  float32: [-3.4028234663852886e38, 3.4028234663852886e38, false],
  float64: [-Number.MAX_VALUE, Number.MAX_VALUE, false],
};

export function numberArbitrary(checks: CheckDef[]): fc.Arbitrary<number> {
  let lo = Number.NEGATIVE_INFINITY;
  let hi = Number.POSITIVE_INFINITY;
  let loIncluded = true;
  let hiIncluded = true;
  let int = false;
  let step: number | undefined;
  for (const c of checks) {
    if (c.check === 'number_format') {
      const [a, b, isInt] = formatBounds[c.format!] ?? [lo, hi, false];
      lo = Math.max(lo, a);
      hi = Math.min(hi, b);
      int ||= isInt;
    }
    if (c.check === 'greater_than' && Number(c.value) >= lo) {
      lo = Number(c.value);
      loIncluded = c.inclusive ?? false;
    }
    if (c.check === 'less_than' && Number(c.value) <= hi) {
      hi = Number(c.value);
      hiIncluded = c.inclusive ?? false;
    }
    if (c.check === 'multiple_of') step = Number(c.value);
  }
  if (int || (step !== undefined && Number.isInteger(step))) {
    const min = Math.max(loIncluded ? Math.ceil(lo) : Math.floor(lo) + 1, Number.MIN_SAFE_INTEGER);
    const max = Math.min(hiIncluded ? Math.floor(hi) : Math.ceil(hi) - 1, Number.MAX_SAFE_INTEGER);
    if (step !== undefined) {
      const first = Math.ceil(min / step);
      const last = Math.floor(max / step);
      return fc.integer({ min: Math.max(first, -(2 ** 40)), max: Math.min(last, 2 ** 40) }).map((k) => k * step);
    }
    // Mostly small numbers and the edges, now and then anywhere in range.
    const small = [Math.max(min, -100), Math.min(max, 1000)] as const;
    return fc.oneof(
      ...(small[0] <= small[1] ? [{ weight: 4, arbitrary: fc.integer({ min: small[0], max: small[1] }) }] : []),
      { weight: 1, arbitrary: fc.constantFrom(min, max) },
      { weight: 1, arbitrary: fc.integer({ min, max }) },
    );
  }
  return fc.double({
    ...(Number.isFinite(lo) ? { min: lo, minExcluded: !loIncluded } : {}),
    ...(Number.isFinite(hi) ? { max: hi, maxExcluded: !hiIncluded } : {}),
    noNaN: true,
    noDefaultInfinity: true,
  });
}
