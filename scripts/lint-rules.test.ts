// The import boundaries of eslint.config.js bite: each rule is shown one import that breaks it (as text
// at a path inside the tree, so nothing is written there), plus a committed cycle in lint-fixtures/.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
// `ignore: false`: the fixtures are ignored by `npm run lint`, not here.
const eslint = new ESLint({ cwd: root, ignore: false });

async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

const boundary = 'import-x/no-restricted-paths';

describe('import boundaries', () => {
  it('keeps a feature out of another feature and out of the app', async () => {
    expect(await ruleIds('apps/web/src/features/courses/probe.ts', "export * from '../sessions/use-sessions';")).toContain(boundary);
    expect(await ruleIds('apps/web/src/features/courses/probe.ts', "export * from '../../app/guards';")).toContain(boundary);
    expect(await ruleIds('apps/web/src/features/courses/probe.ts', "export * from './use-courses';")).not.toContain(boundary);
  });

  it('keeps lib/ and components/ out of features and the app', async () => {
    expect(await ruleIds('apps/web/src/lib/probe.ts', "export * from '../features/auth/login-validation';")).toContain(boundary);
    expect(await ruleIds('apps/web/src/lib/probe.ts', "export * from '../app/guards';")).toContain(boundary);
    expect(await ruleIds('apps/web/src/components/probe.ts', "export * from '../features/auth/login-validation';")).toContain(boundary);
  });

  it('keeps server infrastructure out of the modules and the realtime server', async () => {
    expect(await ruleIds('apps/server/src/infrastructure/probe.ts', "export * from '../modules/auth/trial';")).toContain(boundary);
    expect(await ruleIds('apps/server/src/http/probe.ts', "export * from '../realtime/admission';")).toContain(boundary);
    expect(await ruleIds('apps/server/src/db/probe.ts', "export * from '../modules/auth/trial';")).toContain(boundary);
    expect(await ruleIds('apps/server/src/modules/probe.ts', "export * from '../infrastructure/passwords';")).not.toContain(boundary);
  });

  it('lets a server module reach another only through its door', async () => {
    expect(await ruleIds('apps/server/src/modules/sessions/probe.ts', "export * from '../courses/purchases';")).toContain(boundary);
    expect(await ruleIds('apps/server/src/realtime/probe.ts', "export * from '../modules/sessions/access';")).toContain(boundary);
    expect(await ruleIds('apps/server/src/modules/payments/probe.ts', "export * from '../polls/routes';")).toContain(boundary);
    expect(await ruleIds('apps/server/src/modules/sessions/probe.ts', "export * from '../courses';")).not.toContain(boundary);
    expect(await ruleIds('apps/server/src/modules/sessions/probe.ts', "export * from './access';")).not.toContain(boundary);
    expect(await ruleIds('apps/server/src/modules/sessions/probe.test.ts', "export * from '../courses/purchases';")).not.toContain(boundary);
    expect(await ruleIds('apps/server/src/app-probe.ts', "export * from './modules/courses/purchases';")).not.toContain(boundary);
  });

  it('reports an import cycle', async () => {
    const [result] = await eslint.lintFiles([path.join(root, 'scripts/lint-fixtures/cycle-a.ts')]);
    expect(result!.messages.map((message) => message.ruleId)).toContain('import-x/no-cycle');
  });

});

describe('API paths', () => {
  const rule = 'no-restricted-syntax';
  it('are written only in the contract and the one client module', async () => {
    expect(await ruleIds('apps/web/src/features/courses/probe.ts', "export const path = '/api/courses/';")).toContain(rule);
    expect(await ruleIds('apps/web/src/features/courses/probe.ts', 'export const path = (id: number) => `/api/courses/${id}/`;')).toContain(rule);
    expect(await ruleIds('apps/server/src/modules/probe.ts', "export const path = '/api/health';")).toContain(rule);
    expect(await ruleIds('e2e/probe.spec.ts', "export const path = '/api/courses/';")).toContain(rule);
    expect(await ruleIds('bench/probe.mjs', 'export const path = (id) => `/api/courses/${id}/`;')).toContain(rule);
    expect(await ruleIds('apps/web/src/lib/api.ts', "export const path = '/api/courses/';")).not.toContain(rule);
    expect(await ruleIds('packages/contract/src/probe.ts', "export const path = '/api/courses/';")).not.toContain(rule);
  });
});

describe('unused exports', () => {
  const knip = path.join(root, 'node_modules/knip/bin/knip.js');
  const unusedExports = (directory: string) =>
    spawnSync(process.execPath, [knip, '--directory', directory, '--include', 'exports,types', '--no-progress', '--reporter', 'compact'], {
      encoding: 'utf8',
    });

  it('fail the lint, each named with its file', () => {
    const run = unusedExports(path.join(root, 'scripts/lint-fixtures/unused-export'));
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('src/words.ts: unusedWord');
    expect(run.stdout).not.toContain('usedWord,');
  });

  it('are none in the code base', () => {
    const run = unusedExports(root);
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
