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

// server/ imports only server/, shared/ and packages: what both sides use lives in shared/, imported as `@/shared/…`.
// An `@/` import names its folder; a relative one leaves server/ when it climbs more folders than its file is deep,
// so each depth gets its own pattern (the last block, for files four or more folders down, errs on the strict side).
// The generated route table (server/http/routes.ts) is the one exception: it imports the API route files under
// pages/api. Each block also keeps the NON_REACT one's `react` paths, which its setting replaces for server/.
const SERVER_ONLY_MESSAGE = 'server/ may import only server/, shared/ and packages: move what both sides use to shared/ and import it as @/shared/….';
const serverImports = (files, depth, alias = '^@/(?!server/|shared/)') => ({
  files,
  rules: {
    'no-restricted-imports': ['error', {
      patterns: [{ regex: alias, message: SERVER_ONLY_MESSAGE }, { regex: `^(\\.\\./){${depth + 1}}`, message: SERVER_ONLY_MESSAGE }],
      paths: NO_REACT_IMPORT,
    }],
  },
});
const SERVER_IMPORT_RULES = [
  ...[0, 1, 2, 3].map((depth) => serverImports([`server/${'*/'.repeat(depth)}*`], depth)),
  serverImports(['server/*/*/*/*/**'], 4),
  serverImports(['server/http/routes.ts'], 1, '^@/(?!server/|shared/|pages/api/)'),
];

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  globalIgnores(['.next/**', '.next-*/**', 'node_modules/**', 'data/**', 'data-test/**', 'tmp/**', 'test-results/**',
    'playwright-report/**', 'public/**', 'next-env.d.ts',
    // The n8n package's build output (npm run build there; its tests build into .test-build-*): compiled CommonJS.
    'integrations/n8n/dist/**', 'integrations/n8n/.test-build-*/**']),
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
  ...SERVER_IMPORT_RULES,
  {
    // The server runs its TypeScript through tsx's CommonJS hook only (scripts/server-node-args.cjs: --require tsx/cjs),
    // so one of the project's own files loaded with import() would fail at run time, in whatever rare path first
    // reaches it. Server code loads the project's modules with static imports (compiled to require) and keeps import()
    // for packages.
    files: ['server/**'],
    rules: {
      'no-restricted-syntax': ['error',
        ...[
          "ImportExpression[source.type='Literal'][source.value=/^(\\.|@\\/)/]",
          "ImportExpression[source.type='TemplateLiteral'][source.quasis.0.value.raw=/^(\\.|@\\/)/]",
        ].map((selector) => ({
          selector,
          message: "server/ loads the project's own TypeScript with a static import: tsx's CommonJS hook cannot import() it.",
        })),
      ],
    },
  },
  {
    // shared/ belongs to neither side: it imports from neither, and itself only as `@/shared/…` (the one style).
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { regex: '^@/(?!shared/)', message: 'shared/ holds the code both server and browser use: it imports from neither.' },
          { regex: '^\\.', message: 'Import shared/ modules as @/shared/…, not by a relative path.' },
        ],
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
    // Stores hold state; calls to the API are made by the hooks and components that act (useSelectApp sends
    // app_selected), so a store never loads the HTTP client nor hides a request in a setter. The one exception is the
    // auth store's logout beacon (lib/api/logoutBeacon: a plain keepalive fetch that must leave before storage is cleared).
    files: ['stores/**'],
    rules: {
      'no-restricted-syntax': ['error',
        {
          selector: 'ImportDeclaration[source.value=/^(@\\/|(\\.\\.\\/)+)lib\\/(api|queries)\\/(?!logoutBeacon$)/]',
          message: 'A store makes no API calls: call the API from the hook or component that acts, and write the result to the store.',
        },
        {
          selector: 'ImportExpression',
          message: 'A store loads no module on demand: a lazily imported API call belongs to the hook or component that acts.',
        },
      ],
    },
  },
  {
    // Browser modules import each other one way: a circle (lib/api/auth.ts ↔ lib/session.ts was one) means neither
    // can be read, loaded or tested without the other. Dynamic import() counts too.
    files: ['lib/**', 'stores/**'],
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // CommonJS files (scripts Playwright and Node load as they are, and next.config.js) can only use require().
    files: ['**/*.cjs', 'next.config.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
]);
