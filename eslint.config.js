// One lint setup for every workspace.
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

// Features never import each other or the app; shared code flows lib → features → app.
const featureBoundaries = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const feature = context.filename.match(/apps[\\/]web[\\/]src[\\/]features[\\/]([^\\/]+)[\\/]/)?.[1];
    if (!feature) return {};
    return {
      ImportDeclaration(node) {
        const source = node.source.value;
        if (typeof source !== 'string' || !source.startsWith('.')) return;
        const target = path.resolve(path.dirname(context.filename), source);
        const match = target.match(/apps[\\/]web[\\/]src[\\/](?:(app)|features[\\/]([^\\/]+))(?:[\\/]|$)/);
        if (match && (match[1] || match[2] !== feature)) {
          context.report({ node, message: `The ${feature} feature must not import ${match[1] ? 'the app' : `the ${match[2]} feature`}.` });
        }
      },
    };
  },
};

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'tmp/**', 'test-results/**', 'playwright-report/**', 'apps/server/drizzle/**'],
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
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    plugins: { mooz: { rules: { 'feature-boundaries': featureBoundaries } } },
    rules: { 'mooz/feature-boundaries': 'error' },
  },
);
