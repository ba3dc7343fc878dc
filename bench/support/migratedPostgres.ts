/**
 * A PostgreSQL server of its own (tests/helpers/postgres.ts) with ARB's schema migrated, for the benches that seed a
 * million reviews. The modules are imported when called, not at load, because a bench sets its environment
 * (support/engineBench.ts benchEnv) before anything reads it. close() closes the pool and stops the server.
 */
export async function migratedPostgres() {
  const { openDatabase } = await import('../../server/db/client');
  const { migrateToLatest } = await import('../../server/db/migrate');
  const { startPostgres } = await import('../../tests/helpers/postgres');
  const server = await startPostgres();
  const handle = await openDatabase({ kind: 'postgres', url: server.url, max: 4 });
  const close = async () => {
    await handle.close();
    await server.stop();
  };
  try {
    await migrateToLatest(handle.db);
  } catch (e) {
    await close();
    throw e;
  }
  return { handle, close };
}
