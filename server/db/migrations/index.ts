import type { Migration } from 'kysely';
import * as m0001 from './0001_core';
import * as m0002 from './0002_monitoring';
import * as m0003 from './0003_connect';
import * as m0005 from './0005_auth_sessions';

/**
 * Every migration, in order. Add a new file as NNNN_name.ts and one line here; never edit a migration that has shipped.
 * Reserved numbers: 0002 monitoring engine (apps, sources, reviews, destinations, deliveries), 0003 connect flow and
 * e-mail subscriptions.
 */
export const migrations: Record<string, Migration> = {
  '0001_core': m0001,
  '0002_monitoring': m0002,
  '0003_connect': m0003,
  '0005_auth_sessions': m0005,
};
