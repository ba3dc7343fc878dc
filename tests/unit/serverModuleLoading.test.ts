// The server runs its TypeScript through tsx's CommonJS hook only (scripts/server-node-args.cjs: --require tsx/cjs),
// so a TypeScript file loaded with import() would fail at run time — in whatever rare path first reaches it. Server
// code loads the project's own modules with static imports (compiled to require) and keeps import() for packages.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../scripts/server-node-args.cjs';

const root = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

test('the server is started with the CommonJS hook, not the ES-module hooks and their loader thread', () => {
  expect(SERVER_NODE_FLAGS).toContain('tsx/cjs');
  expect(SERVER_NODE_FLAGS.join(' ')).not.toMatch(/--import\s+tsx\b/);
});

test('no server module loads one of the project’s TypeScript files with import()', () => {
  const offenders = sourceFiles(path.join(root, 'server')).flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (/\bimport\(\s*(\/\*.*?\*\/\s*)?['"`](\.|@\/)/.test(line) ? [`${path.relative(root, file)}:${i + 1}`] : [])),
  );
  expect(offenders).toEqual([]);
});
