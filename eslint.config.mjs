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
    // The server never leans on a browser module: shapes both sides use live in shared/ (or a pure lib/ module). The
    // route table is the one server file that imports pages/, and only the API route files under pages/api.
    files: ['server/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          regex: '^(@/|(\\.\\./)+)(lib/api|components|stores)(/|$)|^(@/|(\\.\\./)+)pages/(?!api/)',
          message: 'server/ must not import browser modules (lib/api, components, stores, pages): move the shared type to shared/.',
        }],
      }],
    },
  },
  {
    // shared/ belongs to neither side: it imports from neither.
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          regex: '^(@/|(\\.\\./)+)(server|lib|components|stores|pages)(/|$)',
          message: 'shared/ holds types both server and browser use: it imports from neither.',
        }],
      }],
    },
  },
  {
    // CommonJS files (scripts Playwright and Node load as they are, and next.config.js) can only use require().
    files: ['**/*.cjs', 'next.config.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
]);
