// Creates an empty embedded database (a PGlite cluster) in a directory. initdb runs in a short-lived child process:
// PGlite's WebAssembly memory (~450 MB during initdb) is never given back to the OS, so doing it in the process that
// then serves would keep that memory for good. Shared by the server (client.ts beside it) and the e2e/bench helpers
// (scripts/arb-server.cjs); CommonJS because Playwright loads the latter as CommonJS, and free of module resolution
// because Next may bundle the server's copy: each caller passes PGlite's file URL, resolved from the project.
'use strict';
const { execFile } = require('node:child_process');

/** Resolves once `dir` holds an empty PGlite cluster; rejects with PGlite's own error text. */
function initPgliteDir(dir, pgliteUrl, timeoutMs = 120_000) {
  const script = `const { PGlite } = await import(${JSON.stringify(pgliteUrl)}); await (await PGlite.create(process.argv[1])).close();`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script, dir], { timeout: timeoutMs }, (err, _out, stderr) =>
      err ? reject(new Error(`Could not create the embedded database in ${dir}: ${String(stderr).trim() || err.message}`)) : resolve(),
    );
  });
}

module.exports = { initPgliteDir };
