// Runs the properties on one route with fast-check and collects every distinct failure, each shrunk to
// its smallest example. fast-check stops at the first failure, so the route is fuzzed in rounds: each
// round ignores the failures already found, and while it shrinks it holds on to the one failure it
// found first (shrinking must not wander off to another failure).
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { exercise, type Problem } from './oracle';
import { requestArbitrary } from './requests';
import { preview } from './zod-mutations';
import { schemaOf, type ApiRoute } from './routes';
import type { World } from './world';

interface FuzzSettings {
  seed: number;
  numRuns: number;
  /** Distinct failures to look for per route before giving up on the rest. */
  maxDistinct: number;
  /** Requests spent shrinking one failure; past them the smallest example so far is kept. */
  maxShrinkSteps: number;
  /** Safety nets on a slow machine: time for one round, its shrinking included... */
  roundTimeLimitMs: number;
  /** ...and time after which no new round starts on a route. */
  routeTimeLimitMs: number;
}

interface Finding extends Problem {
  route: string;
  report: string;
  shrinks: number;
}

interface RouteResult {
  findings: Finding[];
  /** How often each status was answered in the first round: shows how deep the fuzz reached. */
  statuses: Record<number, number>;
  runs: number;
  /** A round ran out of time (FUZZ_ROUND_MS) before its runs were done. */
  interrupted: boolean;
}

/** The fuzz itself broke on a request: not a finding about the app. */
class HarnessError extends Error {
  constructor(route: ApiRoute, req: unknown, cause: unknown) {
    const r = req as { identity?: string; body?: { value: unknown; mutation?: string }; params?: { value: unknown } };
    super(
      `the fuzz failed on ${route.key} as ${r.identity}: ${(cause as Error)?.stack ?? String(cause)}\n  params: ${preview(r.params?.value)}\n  body: ${preview(r.body?.value)} [${r.body?.mutation ?? 'valid'}]`,
    );
  }
}

class FoundProblem extends Error {
  constructor(
    readonly problem: Problem,
    readonly report: string,
  ) {
    super(`${problem.property}\n${report}`);
  }
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): FuzzSettings {
  const number = (name: string, fallback: number) => {
    const value = env[name];
    if (value === undefined || value === '') return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed)) throw new Error(`${name} must be an integer, got ${value}`);
    return parsed;
  };
  return {
    seed: number('FUZZ_SEED', 20_260_522),
    numRuns: number('FUZZ_RUNS', 40),
    maxDistinct: number('FUZZ_MAX_DISTINCT', 6),
    maxShrinkSteps: number('FUZZ_SHRINK_STEPS', 100),
    roundTimeLimitMs: number('FUZZ_ROUND_MS', 60_000),
    routeTimeLimitMs: number('FUZZ_ROUTE_MS', 120_000),
  };
}

/** Runs for a route: `numRuns` when it takes input; a third when only the caller and the headers vary. */
export function runsFor(route: ApiRoute, settings: FuzzSettings): number {
  const { body, params, querystring } = schemaOf(route);
  const takesInput = body !== undefined || params !== undefined || querystring !== undefined || route.method !== 'GET';
  return takesInput ? settings.numRuns : Math.max(1, Math.ceil(settings.numRuns / 3));
}

export async function fuzzRoute(world: World, route: ApiRoute, settings: FuzzSettings): Promise<RouteResult> {
  const arbitrary = requestArbitrary(world, route);
  const numRuns = runsFor(route, settings);
  const known = new Set<string>();
  const findings: Finding[] = [];
  const statuses: Record<number, number> = {};
  let runs = 0;
  let interrupted = false;
  const started = Date.now();
  for (let round = 0; round < settings.maxDistinct && Date.now() - started < settings.routeTimeLimitMs; round++) {
    let target: string | undefined;
    let shrinkSteps = 0;
    const property = fc.asyncProperty(arbitrary, async (req) => {
      // Shrinking is bounded by requests, not time, so a run does the same on a fast and a slow machine.
      if (target !== undefined && ++shrinkSteps > settings.maxShrinkSteps) return;
      let outcome: Awaited<ReturnType<typeof exercise>>;
      try {
        outcome = await exercise(world, req);
      } catch (error) {
        throw new HarnessError(route, req, error);
      }
      if (round === 0 && target === undefined) {
        statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
        runs++;
      }
      const problem = outcome.problems.find(
        (p) => !known.has(p.signature) && (target === undefined || p.signature === target),
      );
      if (!problem) return;
      target ??= problem.signature;
      throw new FoundProblem(problem, outcome.report);
    });
    const result = await fc.check(property, {
      seed: settings.seed,
      numRuns,
      interruptAfterTimeLimit: settings.roundTimeLimitMs,
      markInterruptAsFailure: false,
    });
    interrupted ||= result.interrupted;
    if (!result.failed) break;
    const found = result.errorInstance;
    if (!(found instanceof FoundProblem)) throw found instanceof Error ? found : new Error(String(found)); // the fuzz itself broke
    findings.push({ ...found.problem, route: route.key, report: found.report, shrinks: result.numShrinks });
    known.add(found.problem.signature);
  }
  const file = process.env.FUZZ_REPORT;
  if (file) {
    for (const f of findings)
      appendFileSync(
        file,
        `${JSON.stringify({ route: f.route, property: f.property, signature: f.signature, report: f.report })}\n`,
      );
  }
  return { findings, statuses, runs, interrupted };
}

export function renderFindings(route: ApiRoute, findings: Finding[]): string {
  return [
    `${findings.length} distinct failure(s) on ${route.key}:`,
    ...findings.map((f, i) => `\n#${i + 1} ${f.signature}  (shrunk ${f.shrinks} times)\n${f.report}`),
  ].join('\n');
}
