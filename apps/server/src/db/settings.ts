// The settings every database connection starts with: PostgreSQL's as startup options of each pooled
// connection (no query, nothing to wait for), PGlite's one connection by a SET when it is opened.

/**
 * pg_trgm's word similarity threshold: `%>` (search's typo-tolerant match, modules/navigation) matches
 * when the word similarity reaches it. Set per connection rather than per query, so that a search is one
 * statement instead of a transaction that sets it first.
 */
export const trigramWordThreshold = 0.3;

/**
 * JIT compilation off: PostgreSQL compiles a statement whose estimated cost passes jit_above_cost, which
 * pays for analytics scanning millions of rows but not for an API's short statements: the student
 * dashboard's one statement, a few dozen aggregate expressions, is many times slower with it
 * (bench/dashboard.mjs).
 */
const jit = 'off';

const settings: Record<string, string> = {
  'pg_trgm.word_similarity_threshold': String(trigramWordThreshold),
  jit,
};

/** The settings as `SET` statements (PGlite). */
export const settingStatements = Object.entries(settings)
  .map(([name, value]) => `set ${name} = ${value};`)
  .join('\n');

/**
 * A PostgreSQL connection string with the settings among its startup options, after the string's own
 * (node-postgres lets a connection string's `options` replace the configuration's, so they go in it).
 */
export function withStartupSettings(url: string): string {
  const parsed = new URL(url);
  const own = parsed.searchParams.get('options');
  const ours = Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`);
  parsed.searchParams.set('options', [own, ...ours].filter(Boolean).join(' '));
  return parsed.toString();
}
