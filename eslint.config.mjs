// ESLint 9 flat config: Next's own rules (core web vitals, React, hooks, a11y) and typescript-eslint with type
// information, so promises nobody awaits and `any` are caught. `npm test` runs it before the tests.
import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

// The server, scripts, benchmarks and the tests that run outside a browser hold no React: no .tsx files, and the rule
// below keeps `react` out of them.
const NON_REACT = ['server/**', 'scripts/**', 'bench/**', 'tests/api/**', 'tests/worker/**', 'tests/e2e/**', 'tests/fakes/**',
  'tests/fixtures/**', 'tests/unit/**'];
const NO_REACT_IMPORT = [
  { name: 'react', message: 'React belongs to components/, pages/, lib/ and stores/: this folder runs outside the browser.' },
  { name: 'react-dom', message: 'React belongs to components/, pages/, lib/ and stores/: this folder runs outside the browser.' },
];
// react-hooks' React Compiler rules (all but the classic rules-of-hooks and exhaustive-deps) run the compiler over
// every file to find its components and hooks: a third of the lint's time, spent on folders that have none.
const REACT_COMPILER_RULES = nextVitals
  .flatMap((c) => Object.keys(c.rules ?? {}))
  .filter((r) => r.startsWith('react-hooks/') && r !== 'react-hooks/rules-of-hooks' && r !== 'react-hooks/exhaustive-deps');

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
    files: NON_REACT,
    rules: {
      ...Object.fromEntries(REACT_COMPILER_RULES.map((r) => [r, 'off'])),
      'no-restricted-imports': ['error', { paths: NO_REACT_IMPORT }],
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
        paths: NO_REACT_IMPORT, // the rule above's, which this block's setting replaces for server/
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
    // The shell mounts the Toaster only once a page asks for it (wantShellOverlays in lib/toast): app code raises
    // toasts through lib/hotToast (which asks on import) or withToast from lib/toast, never react-hot-toast itself.
    files: ['components/**', 'pages/**', 'lib/**', 'stores/**'],
    ignores: ['components/layout/ShellOverlays.tsx', 'lib/hotToast.ts', 'lib/toast.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'react-hot-toast', message: "Raise toasts with withToast (lib/toast) or import toast from '@/lib/hotToast': the Toaster is mounted only once asked for." }],
      }],
    },
  },
  {
    // CommonJS files (scripts Playwright and Node load as they are, and next.config.js) can only use require().
    files: ['**/*.cjs', 'next.config.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
]);
