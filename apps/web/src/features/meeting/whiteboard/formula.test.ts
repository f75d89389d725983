import { describe, expect, it } from 'vitest';
import { formulaText } from './formula';

describe('a formula written as text', () => {
  it('writes powers, indices, TeX names and operators as the characters of maths', () => {
    expect(formulaText('x^2 + y_1 <= \\pi')).toBe('x² + y₁ ≤ π');
    expect(formulaText('a^{n+1} != b_{ij}')).toBe('aⁿ⁺¹ ≠ bᵢⱼ');
    expect(formulaText('\\sum x_i -> \\infty')).toBe('∑ xᵢ → ∞');
    expect(formulaText('sqrt(2) +- 1')).toBe('√(2) ± 1');
  });

  it('keeps what it has no form for as typed', () => {
    expect(formulaText('x^q')).toBe('x^q');
    expect(formulaText('\\unknown')).toBe('\\unknown');
    expect(formulaText('  E = mc^2  ')).toBe('E = mc²');
  });
});
