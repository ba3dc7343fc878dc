import type { Migration } from 'kysely';
import * as m0001 from './0001_core';

/**
 * Every migration, in order. Add a new file as NNNN_name.ts and one line here; never edit a migration that has shipped.
 * Reserved numbers: 0002 monitoring engine (apps, sources, reviews, destinations, deliveries), 0003 connect flow and
 * e-mail subscriptions.
 */
export const migrations: Record<string, Migration> = {
  '0001_core': m0001,
};
