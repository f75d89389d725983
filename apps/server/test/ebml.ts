// EBML (WebM's encoding) as the tests read it, independently of the server's own reader, so a test that
// reads a written file back does not trust the module under test.

/**
 * The variable-length integer at `at`: an element ID when `keepMarker` (its length marker kept), else
 * an element's size (`unknown`: all value bits set, a size not known, as a live recorder writes).
 */
export function vint(b: Buffer, at: number, keepMarker: boolean) {
  const first = b[at]!;
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  let value = keepMarker ? first : first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + b[at + i]!;
  return { value, length, unknown: !keepMarker && value === 2 ** (7 * length) - 1 };
}
