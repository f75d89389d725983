// A formula typed the way people type them in chats (x^2, a_1, \alpha, sqrt(x), <=) written as text
// that reads as maths, for the board's text elements: superscripts and subscripts as Unicode
// characters, a few TeX names as their symbols. Anything it does not know stays as typed.

const superscripts: Record<string, string> = {
  '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹',
  '+': '⁺', '-': '⁻', '=': '⁼', '(': '⁽', ')': '⁾', n: 'ⁿ', i: 'ⁱ', x: 'ˣ', y: 'ʸ', a: 'ᵃ', b: 'ᵇ', c: 'ᶜ', k: 'ᵏ', m: 'ᵐ', t: 'ᵗ',
};
const subscripts: Record<string, string> = {
  '0': '₀', '1': '₁', '2': '₂', '3': '₃', '4': '₄', '5': '₅', '6': '₆', '7': '₇', '8': '₈', '9': '₉',
  '+': '₊', '-': '₋', '=': '₌', '(': '₍', ')': '₎', a: 'ₐ', e: 'ₑ', i: 'ᵢ', j: 'ⱼ', k: 'ₖ', n: 'ₙ', o: 'ₒ', x: 'ₓ', m: 'ₘ', t: 'ₜ',
};
const symbols: Record<string, string> = {
  alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', Delta: 'Δ', epsilon: 'ε', theta: 'θ', lambda: 'λ', mu: 'μ',
  pi: 'π', sigma: 'σ', Sigma: 'Σ', phi: 'φ', omega: 'ω', Omega: 'Ω', infty: '∞', sum: '∑', int: '∫', sqrt: '√',
  times: '×', cdot: '·', div: '÷', pm: '±', leq: '≤', geq: '≥', neq: '≠', approx: '≈', to: '→', partial: '∂', nabla: '∇',
};
const operators: [RegExp, string][] = [
  [/<=/g, '≤'],
  [/>=/g, '≥'],
  [/!=/g, '≠'],
  [/->/g, '→'],
  [/\+-/g, '±'],
  [/\bsqrt\(/g, '√('],
];

/** `^2`, `^{12}`, `_n`, `_{ij}`: each character mapped, or the group kept as typed when one has no form. */
function scripted(text: string, marker: '^' | '_', table: Record<string, string>): string {
  return text.replace(marker === '^' ? /\^(\{[^}]*\}|.)/g : /_(\{[^}]*\}|.)/g, (whole, group: string) => {
    const inner = group.startsWith('{') ? group.slice(1, -1) : group;
    const mapped = [...inner].map((char) => table[char]);
    return mapped.every(Boolean) ? mapped.join('') : whole;
  });
}

export function formulaText(input: string): string {
  let text = input.trim().replace(/\\([A-Za-z]+)/g, (whole, name: string) => symbols[name] ?? whole);
  for (const [pattern, symbol] of operators) text = text.replace(pattern, symbol);
  text = scripted(text, '^', superscripts);
  return scripted(text, '_', subscripts);
}
