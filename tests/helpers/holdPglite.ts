/**
 * A second process for tests/api/dbLock.test.ts: opens the PGlite directory given as argv[2], prints ARB-HOLDING
 * (a word of our own: PGlite prints postgres' "ready to accept connections" earlier), and holds the directory until
 * SIGTERM (then closes cleanly) or SIGKILL (leaving a stale lock behind).
 */
import { openDatabase } from '../../server/db/client';

async function main() {
  const handle = await openDatabase({ kind: 'pglite', dataDir: process.argv[2] });
  const keepAlive = setInterval(() => {}, 60_000);
  process.on('SIGTERM', () => {
    clearInterval(keepAlive);
    void handle.close().then(() => process.exit(0));
  });
  process.stdout.write('ARB-HOLDING\n');
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
});
