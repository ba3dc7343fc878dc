// The framework's floor: a Next.js app with nothing but one page, the same next/react install and bundler, built in a
// temporary folder of this project (so Turbopack finds the same root and node_modules). Benches compare against it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root } from '../../scripts/ensure-build.cjs';
import { freePort } from '../../scripts/arb-server.cjs';

const nextBin = path.join(root, 'node_modules/next/dist/bin/next');

/** Build the bare app; `remove()` deletes it. */
export function buildFloorApp() {
  const dir = path.join(root, 'tmp', `bench-floor-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'pages'), { recursive: true });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'bench-floor', private: true }));
  // Its own (empty) config: Next looks for next.config.* upwards from the app's folder, and would otherwise take this
  // project's — whose Content-Security-Policy blocks the floor's inline chunk list, so its page never hydrated.
  fs.writeFileSync(path.join(dir, 'next.config.js'), 'module.exports = {};\n');
  // The smallest page a search engine would accept: a language, a title, a description and a heading.
  fs.writeFileSync(
    path.join(dir, 'pages/_document.tsx'),
    "import { Html, Head, Main, NextScript } from 'next/document';\nexport default function Document() {\n  return (\n    <Html lang=\"en\">\n      <Head />\n      <body>\n        <Main />\n        <NextScript />\n      </body>\n    </Html>\n  );\n}\n",
  );
  fs.writeFileSync(
    path.join(dir, 'pages/index.tsx'),
    "import Head from 'next/head';\nexport default function Home() {\n  return (\n    <>\n      <Head>\n        <title>Floor</title>\n        <meta name=\"description\" content=\"A bare Next.js page.\" />\n        <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n      </Head>\n      <h1>Floor</h1>\n    </>\n  );\n}\n",
  );
  const r = spawnSync(process.execPath, [nextBin, 'build'], {
    cwd: dir,
    env: { ...process.env, NEXT_DIST_DIR: '', NEXT_TELEMETRY_DISABLED: '1' },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`building the bare Next.js page failed:\n${r.stdout}\n${r.stderr}`);
  return { dir, distDir: path.join(dir, '.next'), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** `next start` on the built floor app, on a free loopback port. */
export async function startFloorServer(dir) {
  const port = await freePort();
  const child = spawn(process.execPath, [nextBin, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: dir,
    env: { ...process.env, NEXT_DIST_DIR: '', NEXT_TELEMETRY_DISABLED: '1' },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await (await fetch(url)).arrayBuffer();
      break;
    } catch (err) {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw new Error(`the floor app did not start on ${url}: ${err.message}`);
      }
      await new Promise((r) => setTimeout(r, 150)); // not listening yet
    }
  }
  return { url, stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM')))) };
}
