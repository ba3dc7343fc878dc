// ESLint 9 flat config: Next's own rules (core web vitals, React, hooks, a11y) and typescript-eslint with type
// information, so promises nobody awaits and `any` are caught. `npm test` runs it before the tests.
import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  globalIgnores(['.next/**', '.next-*/**', 'node_modules/**', 'data/**', 'data-test/**', 'tmp/**', 'test-results/**',
    'playwright-report/**', 'public/**', 'next-env.d.ts']),
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // A leading underscore marks a value left out on purpose (`const { html: _html, ...summary } = post`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // CommonJS files (scripts Playwright and Node load as they are, and next.config.js) can only use require().
    files: ['**/*.cjs', 'next.config.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
]);
