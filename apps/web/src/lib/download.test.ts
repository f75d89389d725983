import { describe, expect, it } from 'vitest';
import { fileNameOf } from './download';

describe("a download's file name", () => {
  it('prefers the exact UTF-8 name, falls back to the plain one, and is null without a header', () => {
    expect(fileNameOf(`attachment; filename="_l_ves.csv"; filename*=UTF-8''%C3%A9l%C3%A8ves.csv`)).toBe('élèves.csv');
    expect(fileNameOf('attachment; filename="students-x-2026-11-22.csv"')).toBe('students-x-2026-11-22.csv');
    expect(fileNameOf(`attachment; filename="plain.csv"; filename*=UTF-8''%E0%A4%A`)).toBe('plain.csv');
    expect(fileNameOf(null)).toBeNull();
  });
});
