// The server runs its TypeScript through tsx's CommonJS hook only (scripts/server-node-args.cjs: --require tsx/cjs),
// so a TypeScript file loaded with import() would fail at run time — in whatever rare path first reaches it. That
// server code never does is an ESLint rule (no-restricted-syntax on server/** in eslint.config.mjs); this file checks
// the flags themselves.
import { expect, test } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../scripts/server-node-args.cjs';

test('the server is started with the CommonJS hook, not the ES-module hooks and their loader thread', () => {
  expect(SERVER_NODE_FLAGS).toContain('tsx/cjs');
  expect(SERVER_NODE_FLAGS.join(' ')).not.toMatch(/--import\s+tsx\b/);
});
