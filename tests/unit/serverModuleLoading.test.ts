// The server runs its TypeScript through tsx's CommonJS hook only (scripts/server-node-args.cjs: --require tsx/cjs),
// so a TypeScript file loaded with import() would fail at run time — in whatever rare path first reaches it. Server
// code loads the project's own modules with static imports (compiled to require) and keeps import() for packages.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../scripts/server-node-args.cjs';

const root = path.resolve(__dirname, '../..');

test('the server is started with the CommonJS hook, not the ES-module hooks and their loader thread', () => {
  expect(SERVER_NODE_FLAGS).toContain('tsx/cjs');
  expect(SERVER_NODE_FLAGS.join(' ')).not.toMatch(/--import\s+tsx\b/);
});

test('no server module loads one of the project’s TypeScript files with import()', () => {
  const server = path.join(root, 'server');
  const files = fs.readdirSync(server, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
  expect(files.length).toBeGreaterThan(100);
  const offenders = files.flatMap((file) =>
    fs
      .readFileSync(path.join(server, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => (/\bimport\(\s*(\/\*.*?\*\/\s*)?['"`](\.|@\/)/.test(line) ? [`server/${file}:${i + 1}`] : [])),
  );
  expect(offenders).toEqual([]);
});
