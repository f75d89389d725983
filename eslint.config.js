// One lint setup for every workspace.
import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

// Import boundaries (eslint-plugin-import-x `no-restricted-paths`; `target` imports, `from` is imported).
// Web: shared code (lib, components, config) → features → app; a feature never imports another feature.
// Server: infrastructure (infrastructure/, http/, db/) serves the modules and the realtime server, never the reverse.
const web = 'apps/web/src';
const webFeatures = fs
  .readdirSync(`${import.meta.dirname}/${web}/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const boundaryZones = [
  ...webFeatures.map((feature) => ({
    target: `${web}/features/${feature}`,
    from: `${web}/features`,
    except: [`./${feature}`],
    message: 'A feature never imports another feature: move what both need to lib/ or components/.',
  })),
  { target: `${web}/features`, from: `${web}/app`, message: 'Features never import the app; the app imports features.' },
  ...['lib', 'components', 'config'].map((shared) => ({
    target: `${web}/${shared}`,
    from: [`${web}/features`, `${web}/app`],
    message: 'Shared code (lib, components, config) never imports a feature or the app.',
  })),
  {
    target: ['apps/server/src/infrastructure', 'apps/server/src/http', 'apps/server/src/db'],
    from: ['apps/server/src/modules', 'apps/server/src/realtime'],
    message: 'Infrastructure (infrastructure/, http/, db/) never imports a module or the realtime server.',
  },
];

// Server: a module answers the others (and the realtime server) only through its door, modules/<name>/index.ts;
// a module without one has nothing for them. Tests and the files that put the app together (src/*.ts)
// may reach inside.
const server = 'apps/server/src';
const serverModules = fs
  .readdirSync(`${import.meta.dirname}/${server}/modules`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const moduleDoorZones = serverModules.map((module) => ({
  target: [
    ...serverModules.filter((other) => other !== module).map((other) => `${server}/modules/${other}`),
    `${server}/realtime`,
    `${server}/sfu`,
  ],
  from: `${server}/modules/${module}`,
  except: ['./index.ts'],
  message: `Another module reaches ${module} only through its door, modules/${module}/index.ts: export what is needed there.`,
}));

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'tmp/**', 'test-results/**', 'playwright-report/**', 'apps/server/drizzle/**', 'scripts/lint-fixtures/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['**/*.{ts,tsx,mts,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      // Which files the rules follow and parse (the plugin's TypeScript preset, without its legacy resolver).
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      // TypeScript's resolution: extensionless relative imports and the contract's package exports.
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['packages/contract/tsconfig.json', 'apps/server/tsconfig.json', 'apps/web/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: boundaryZones }],
      'import-x/no-cycle': 'error',
    },
  },
  {
    files: [`${server}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [...boundaryZones, ...moduleDoorZones] }] },
  },
  {
    // An endpoint's path is written once, in the contract (api-routes.ts); the web app reaches the API
    // only through lib/api.ts, the server only through route(), the end-to-end tests and the benchmarks
    // through apiRoutes too.
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/server/src/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.mjs'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'apps/web/src/lib/api.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'Literal[value=/^\\/api(\\/|$)/]', message: 'Use the contract (apiRoutes / endpoints) instead of writing an /api path.' },
        { selector: 'TemplateElement[value.raw=/^\\/api(\\/|$)/]', message: 'Use the contract (apiRoutes / endpoints) instead of writing an /api path.' },
      ],
    },
  },
);
