// Builds the Next.js app only when needed: no build yet, a source newer than the build, or different NEXT_PUBLIC_*
// values than the build was made with (Next inlines them into the bundles). CI=true always builds; ARB_REUSE_BUILD=1
// takes any existing build as it is (for iterating on tests while sources change, and for the later stages of
// `npm test` and `npm run bench`, which build once up front: even under CI=true one run makes one build).
// Used by the end-to-end global setup and the benchmarks, so a run builds once and later runs reuse `.next`.
//
//   node scripts/ensure-build.cjs            # distDir from NEXT_DIST_DIR, default .next
//   const { ensureBuild } = require('./ensure-build.cjs')   (or import from ESM)
//
// CommonJS on purpose: Playwright loads TypeScript as CommonJS and cannot load an ES module that uses import.meta.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { addCompileHints } = require('./compile-hints.cjs');

const root = path.resolve(__dirname, '..');

/** Everything that ends up in the build: pages and what they import, the API's server code, content, config. */
const SOURCES = ['pages', 'components', 'lib', 'shared', 'stores', 'styles', 'content', 'public', 'server', 'next.config.js', 'package.json', 'package-lock.json', 'tsconfig.json'];
const STAMP = 'arb-build-env.json';

function newestMtime(p) {
  let st;
  try {
    st = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs; // a deleted file shows up as a newer directory mtime
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

function publicEnv(env) {
  return Object.fromEntries(
    Object.entries(env)
      .filter(([k, v]) => k.startsWith('NEXT_PUBLIC_') && v)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** Why the build in `distDir` can't be reused, or null when it can. */
function staleReason(distDir, env = process.env) {
  const buildId = path.join(root, distDir, 'BUILD_ID');
  if (!fs.existsSync(buildId)) return `no build in ${distDir}`;
  if (env.ARB_REUSE_BUILD === '1') return null;
  if (env.CI === 'true') return 'CI=true builds every time';
  const builtAt = fs.statSync(buildId).mtimeMs;
  const newer = SOURCES.find((s) => newestMtime(path.join(root, s)) > builtAt);
  if (newer) return `${newer} changed since the last build`;
  let stamped = {};
  try {
    stamped = JSON.parse(fs.readFileSync(path.join(root, distDir, STAMP), 'utf8'));
  } catch {
    return 'the last build recorded no NEXT_PUBLIC_* values';
  }
  if (JSON.stringify(stamped) !== JSON.stringify(publicEnv(env))) return 'NEXT_PUBLIC_* values differ from the last build';
  return null;
}

/**
 * Build into `distDir` unless the existing build is fresh. Returns { built, reason, ms }.
 * Output goes to the terminal only when the build fails (a passing build's 200 lines would drown the test output).
 */
function ensureBuild({ distDir = process.env.NEXT_DIST_DIR || '.next', env = process.env, log = console.log } = {}) {
  const reason = staleReason(distDir, env);
  if (!reason) return { built: false, reason: 'fresh', ms: 0 };
  log(`Building the app into ${distDir} (${reason})…`);
  const started = Date.now();
  // The route table is generated from pages/api, as `npm run build` does it.
  const routes = spawnSync(process.execPath, [path.join(root, 'scripts/api-routes.mjs')], { cwd: root, encoding: 'utf8' });
  if (routes.status !== 0) throw new Error(`scripts/api-routes.mjs failed: ${routes.stderr}`);
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build'], {
    cwd: root,
    env: { ...env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: '1' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    process.stderr.write(r.stdout ?? '');
    process.stderr.write(r.stderr ?? '');
    throw new Error(`next build failed (exit ${r.status ?? r.signal})`);
  }
  addCompileHints(path.join(root, distDir)); // as `npm run build` does after `next build`
  fs.writeFileSync(path.join(root, distDir, STAMP), JSON.stringify(publicEnv(env)));
  return { built: true, reason, ms: Date.now() - started };
}

module.exports = { root, staleReason, ensureBuild };

if (require.main === module) {
  try {
    const r = ensureBuild();
    console.log(r.built ? `Built in ${Math.round(r.ms / 1000)} s.` : 'The existing build is fresh.');
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
