// scripts/compile-hints.cjs: the scripts pages start with are marked for eager compilation, once, and nothing else.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { HINT, addCompileHints } from '../../scripts/compile-hints.cjs';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function fakeBuild(): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-hints-'));
  fs.mkdirSync(path.join(dir, 'static/chunks'), { recursive: true });
  for (const f of ['app.js', 'page.js', 'runtime.js', 'lazy.js', 'page.css']) fs.writeFileSync(path.join(dir, 'static/chunks', f), `/* ${f} */`);
  const pages = {
    '/_app': ['static/chunks/app.js', 'static/chunks/runtime.js'],
    '/pricing': ['static/chunks/page.css', 'static/chunks/page.js', 'static/chunks/runtime.js'],
  };
  fs.writeFileSync(path.join(dir, 'build-manifest.json'), JSON.stringify({ pages, polyfillFiles: [], rootMainFiles: [], lowPriorityFiles: ['static/x/_buildManifest.js'] }));
  return dir;
}

const read = (d: string, f: string) => fs.readFileSync(path.join(d, 'static/chunks', f), 'utf8');

test('start-up scripts get the hint as their first line, once; dynamic chunks and stylesheets are left as they are', () => {
  const d = fakeBuild();
  expect(addCompileHints(d)).toBe(3);
  expect(read(d, 'app.js')).toBe(`${HINT}/* app.js */`);
  expect(read(d, 'runtime.js')).toBe(`${HINT}/* runtime.js */`);
  expect(read(d, 'lazy.js')).toBe('/* lazy.js */');
  expect(read(d, 'page.css')).toBe('/* page.css */');
  expect(addCompileHints(d)).toBe(0);
  expect(read(d, 'page.js')).toBe(`${HINT}/* page.js */`);
});
