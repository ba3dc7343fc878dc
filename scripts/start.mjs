// `npm start`: build once if there is no production build yet, then run the one-process server (site + API + worker).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const distDir = process.env.NEXT_DIST_DIR || '.next';
if (!fs.existsSync(path.join(root, distDir, 'BUILD_ID'))) {
  console.log('No production build found: running `next build` (once)…');
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  createRequire(import.meta.url)('./compile-hints.cjs').addCompileHints(path.join(root, distDir));
}
const { runWithServerFlags } = createRequire(import.meta.url)('./server-node-args.cjs');
runWithServerFlags('server/main.ts', { NODE_ENV: 'production', ...process.env });
