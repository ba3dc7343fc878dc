// Marks the scripts a page starts with (every page's and _app's chunks in the build manifest) for eager compilation:
// `//# allFunctionsCalledOnLoad` as a script's first line (V8's explicit compile hints, Chrome 136+) makes the browser
// compile all its functions on the background thread that parses the script while it downloads, instead of each
// function on the main thread the first time it is called. Without it, most of the long task that evaluates the
// modules at start-up was that lazy compilation (a trace of /pricing with V8's compile events: 68 of 90 ms in 294
// V8.CompileCode, 42 ms of it parsing; the modules' own code ~20 ms), and hydration compiled React's functions as it
// went. Chunks loaded later (next/dynamic, later navigations) are left lazy: much of their code never runs.
// Other browsers ignore the comment. Run after `next build` (`npm run build`, scripts/ensure-build.cjs); idempotent.
//
//   node scripts/compile-hints.cjs            # distDir from NEXT_DIST_DIR, default .next
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const HINT = '//# allFunctionsCalledOnLoad\n';

/** The JavaScript files pages load at start-up, relative to the build folder. */
function startupScripts(distDir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir, 'build-manifest.json'), 'utf8'));
  const files = new Set();
  for (const list of [...Object.values(manifest.pages), manifest.polyfillFiles ?? [], manifest.rootMainFiles ?? []]) {
    for (const f of list) if (f.endsWith('.js')) files.add(f);
  }
  return [...files];
}

/** Prepends the hint to each start-up script that lacks it. Returns how many files it changed. */
function addCompileHints(distDir) {
  let changed = 0;
  for (const file of startupScripts(distDir)) {
    const p = path.join(distDir, file);
    const text = fs.readFileSync(p, 'utf8');
    if (text.startsWith(HINT)) continue;
    fs.writeFileSync(p, HINT + text);
    changed += 1;
  }
  return changed;
}

module.exports = { HINT, startupScripts, addCompileHints };

if (require.main === module) {
  const distDir = path.resolve(__dirname, '..', process.env.NEXT_DIST_DIR || '.next');
  console.log(`compile hints: ${addCompileHints(distDir)} start-up scripts marked in ${path.relative(process.cwd(), distDir) || '.'}`);
}
