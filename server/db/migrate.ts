/**
 * Numbered migrations (server/db/migrations/NNNN_name.ts), applied in order at start. They are listed statically in
 * migrations/index.ts so that the Next bundle and the custom server both carry them.
 */
import { Migrator, type Kysely, type MigrationProvider, type Migration } from 'kysely';
import { migrations } from './migrations';
import { log } from '../log';

const provider: MigrationProvider = {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  },
};

export async function migrateToLatest<T>(db: Kysely<T>): Promise<void> {
  const migrator = new Migrator({ db, provider, migrationTableName: 'arb_migrations', migrationLockTableName: 'arb_migrations_lock' });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) {
    if (r.status === 'Success') log.info('migration applied', { migration: r.migrationName });
    else if (r.status === 'Error') log.error('migration failed', { migration: r.migrationName });
  }
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
