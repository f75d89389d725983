// Shared by the accessibility and keyboard specs: signing a window in through the API, the layout and
// language a window starts with, fresh students, and axe scans that keep the critical and serious findings.
//
// The accessibility specs (accessibility-*.spec.ts, one per kind of screen, so that the two workers share
// them out) scan every screen in four looks, which between them cover each language, each skin and each
// direction (all 16 combinations would only repeat the same checks four times over):
//
//   | look            | language | skin  | direction |
//   | en light ltr    | en       | light | ltr       |
//   | fr dark rtl     | fr       | dark  | rtl       |
//   | de light rtl    | de       | light | rtl       |
//   | pt dark ltr     | pt       | dark  | ltr       |
import axe from 'axe-core';
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { apiRoutes } from '@mooz/contract/api-routes';
import { storageKeys } from '@mooz/contract/config';

export const demoPassword = 'mooz-demo-123';

export interface Look {
  /** A short name for reports, e.g. "fr dark rtl". */
  name: string;
  lng: 'en' | 'fr' | 'de' | 'pt';
  skin: 'light' | 'dark';
  rtl: boolean;
}

export const look = (lng: Look['lng'], skin: Look['skin'], rtl: boolean): Look => ({
  name: `${lng} ${skin} ${rtl ? 'rtl' : 'ltr'}`,
  lng,
  skin,
  rtl,
});

/** The four looks of the accessibility specs (the table above). */
export const looks: Look[] = [look('en', 'light', false), look('fr', 'dark', true), look('de', 'light', true), look('pt', 'dark', false)];

/** Goes to `path` and waits for the element (by test id) that says it has loaded. */
export async function visit(page: Page, path: string, testId: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByTestId(testId).first()).toBeVisible();
}

/** Visits and scans each page: its path, the test id that says it has loaded, its name in the report. */
export async function scanPages(page: Page, axe: AxeReport, pages: [path: string, testId: string, name: string][]): Promise<void> {
  for (const [path, testId, name] of pages) {
    await visit(page, path, testId);
    await axe.scan(page, name);
  }
}

export interface SignedIn {
  access: string;
  refresh: string;
  user: Record<string, unknown>;
}

/** The header that signs an API request in as `who`. */
export const auth = (who: { access: string }) => ({ Authorization: `Bearer ${who.access}` });

export async function apiLogIn(request: APIRequestContext, email: string, password = demoPassword): Promise<SignedIn> {
  const response = await request.post(apiRoutes.auth.login.path, { data: { email, password } });
  expect(response.status(), await response.text()).toBe(200);
  const { access, refresh, user, ...summary } = (await response.json()).data;
  return { access, refresh, user: { ...summary, ...user } };
}

export const uniqueEmail = (prefix: string) => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;

/** A new, verified student made by the demo admin (so the demo student stays untouched for other specs). */
export async function newStudent(request: APIRequestContext, firstName: string): Promise<{ email: string; session: SignedIn }> {
  const admin = await apiLogIn(request, 'admin@mooz.local');
  const email = uniqueEmail(`a11y-${firstName.toLowerCase()}`);
  const created = await request.post(apiRoutes.admin.createUser.path, {
    headers: auth(admin),
    data: { email, password: demoPassword, first_name: firstName, last_name: 'Student', user_type: 'student' },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { email, session: await apiLogIn(request, email) };
}

/**
 * Every page of the context starts in `look` (as the settings and the language menu would leave it),
 * and, with `session`, signed in with the meeting name `userName`.
 */
export async function prepare(context: BrowserContext, view: Look, session?: SignedIn, userName?: string): Promise<void> {
  await context.addInitScript(
    ({ keys, view, session, userName }) => {
      localStorage.setItem(keys.language, view.lng);
      const stored = JSON.parse(localStorage.getItem(keys.layout) ?? 'null') as { state?: object } | null;
      localStorage.setItem(keys.layout, JSON.stringify({ state: { ...stored?.state, skin: view.skin, rtl: view.rtl }, version: 1 }));
      if (session && !localStorage.getItem(keys.access)) {
        localStorage.setItem(keys.access, session.access);
        localStorage.setItem(keys.refresh, session.refresh);
        localStorage.setItem(keys.user, JSON.stringify(session.user));
      }
      if (userName) localStorage.setItem(keys.userName, userName);
    },
    { keys: storageKeys, view, session: session ?? null, userName: userName ?? null },
  );
}

/** Waits until the page shows its language and nothing moves (dialogs and drawers have opened). */
export async function settle(page: Page, view: Look): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', view.lng);
  await expect(page.locator('html')).toHaveAttribute('dir', view.rtl ? 'rtl' : 'ltr');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', view.skin);
  // Finite animations only: a live session's pulsing dot never ends.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  );
  // Two frames, so anything that rendered on the last state change has painted.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * Every WCAG 2.x level A and AA rule of this axe-core, those it leaves out by default included: the
 * experimental ones (p-as-heading, td-has-header…) and target-size (2.2 AA). Not the deprecated ones,
 * which axe keeps only until it removes them. axe's default set (its best practices too) runs as well.
 */
export const wcagRules = axe
  .getRules(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'])
  .filter((rule) => !rule.tags.includes('deprecated'))
  .map((rule) => rule.ruleId);
const scanOptions: axe.RunOptions = {
  rules: Object.fromEntries(wcagRules.map((id) => [id, { enabled: true }])),
  // Only violations are wanted: leaving out the passes' details makes a scan about a third faster.
  resultTypes: ['violations'],
  // The app draws no frame (see runAxe).
  iframes: false,
};

/**
 * axe run in the page itself, injected once per document (a navigation drops it). Not through
 * @axe-core/playwright: its default mode opens a blank page for every scan to gather each frame's
 * results, and its legacy mode injects axe again at every scan and wraps the run, each several times
 * slower than the run alone, for the many scans of the accessibility specs. What only those modes add
 * is what is inside a frame (a srcdoc frame's image went unchecked where the default found it), and
 * the suite has none: the app draws no iframe, and the
 * tests' payment provider is the sandbox, whose checkout is a dialog of the app's own (Razorpay's
 * framed one is not scanned here).
 */
async function runAxe(page: Page): Promise<axe.Result[]> {
  type WithAxe = Window & { axe?: typeof axe };
  if (!(await page.evaluate(() => Boolean((window as WithAxe).axe)))) await page.evaluate(axe.source);
  return page.evaluate(async (options) => (await (window as WithAxe).axe!.run(document, options)).violations, scanOptions);
}

/**
 * axe's violations on the page as it is now, with every animation and transition taken to its end for
 * the length of the scan. A scan takes a second or more: a meeting toast that began to fade out
 * meanwhile was read at part of its opacity and reported as low contrast, a colour it never has at rest,
 * and the test failed now and then. At their ends a leaving toast is transparent, so hidden to axe, and
 * an arriving one fully drawn, so what is checked is what stays on screen.
 */
export async function axeViolations(page: Page) {
  const settled = await page.addStyleTag({
    content:
      '*, *::before, *::after { animation-duration: 0s !important; animation-delay: 0s !important; transition-duration: 0s !important; transition-delay: 0s !important; }',
  });
  try {
    return await runAxe(page);
  } finally {
    await settled.evaluate((node) => node.remove()).catch(() => undefined);
  }
}

/** The findings that fail a test: critical and serious ones. */
export const failsTest = <V extends { impact?: string | null }>(violation: V): violation is V & { impact: 'critical' | 'serious' } =>
  violation.impact === 'critical' || violation.impact === 'serious';

interface Finding {
  where: string;
  id: string;
  impact: string;
  help: string;
  helpUrl: string;
  nodes: { target: string; summary: string }[];
}

/** Collects the critical and serious axe findings of each scanned screen, and reports them together. */
export class AxeReport {
  readonly findings: Finding[] = [];
  scanned = 0;

  constructor(private readonly view: Look) {}

  async scan(page: Page, screen: string): Promise<void> {
    await settle(page, this.view);
    const violations = await axeViolations(page);
    this.scanned++;
    for (const violation of violations) {
      if (!failsTest(violation)) continue;
      this.findings.push({
        where: `${screen} [${this.view.name}]`,
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        helpUrl: violation.helpUrl,
        nodes: violation.nodes.map((node) => ({
          target: node.target.map(String).join(' '),
          summary: (node.failureSummary ?? '').replace(/\s*\n\s*/g, ' '),
        })),
      });
    }
  }

  /** One readable block per finding: where, which rule, then each offending element and why. */
  format(): string {
    return this.findings
      .map((finding) =>
        [
          `${finding.where}: ${finding.impact} ${finding.id} — ${finding.help} (${finding.helpUrl})`,
          ...finding.nodes.map((node) => `    ${node.target}\n      ${node.summary}`),
        ].join('\n'),
      )
      .join('\n\n');
  }

  /** Fails the test with every finding printed, after attaching them as JSON. */
  async expectClean(): Promise<void> {
    await test.info().attach('axe-findings.json', { body: JSON.stringify(this.findings, null, 2), contentType: 'application/json' });
    const report = this.format();
    if (report) console.log(report);
    expect(this.scanned, 'screens scanned').toBeGreaterThan(0);
    expect(
      this.findings.map((finding) => `${finding.where}: ${finding.id}`),
      `critical or serious accessibility violations:\n\n${report}`,
    ).toEqual([]);
  }
}
