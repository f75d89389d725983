import { describe, expect, it } from 'vitest';
import { attachment, csvField, toCsv } from './csv';

describe('CSV fields', () => {
  it('quote commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(-3)).toBe('-3');
  });

  it('keep text that starts like a formula as text', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvField(`${start}SUM(A1)`)).toMatch(/^"?'/);
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('@cmd,x')).toBe(`"'@cmd,x"`);
    expect(csvField('Ana = 1')).toBe('Ana = 1');
  });

  it('write rows with CRLF after a byte order mark', () => {
    expect(toCsv(['a', 'b'], [[1, 'x']])).toBe('\uFEFFa,b\r\n1,x\r\n');
  });
});

describe('attachment names', () => {
  it('give an ASCII fallback and the exact UTF-8 name', () => {
    expect(attachment('élèves "x".csv')).toBe(`attachment; filename="_l_ves _x_.csv"; filename*=UTF-8''%C3%A9l%C3%A8ves%20%22x%22.csv`);
  });
});
