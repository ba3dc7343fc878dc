/**
 * The keys the stored data depends on, checked at every start against fingerprints kept in the database. The first
 * process to start records them; a later one with other keys (a lost or regenerated secrets.json, a second host
 * without the shared AUTH_SECRET/ENCRYPTION_KEY) is refused before it serves anything, instead of failing on every
 * encrypted webhook and every session later. A fingerprint is HMAC-SHA256(key, a constant): it tells whether two keys
 * are the same and nothing about the key.
 */
import { createHmac } from 'node:crypto';
import type { DB } from './client';

export type Keys = { AUTH_SECRET: string; ENCRYPTION_KEY: string };

/** Thrown when a key differs from the one the database was set up with; the message says what to do. */
export class KeyMismatchError extends Error {}

const CONSTANT = 'arb key fingerprint v1';

export function keyFingerprint(key: string): string {
  return createHmac('sha256', key).update(CONSTANT).digest('hex');
}

/** Records the keys' fingerprints when the database has none yet, then compares; throws KeyMismatchError on a difference. */
export async function checkKeyFingerprints(db: DB, keys: Keys, where: string): Promise<void> {
  const names = Object.keys(keys) as Array<keyof Keys>;
  await db
    .insertInto('key_fingerprints')
    .values(names.map((name) => ({ name, fingerprint: keyFingerprint(keys[name]) })))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await db.selectFrom('key_fingerprints').select(['name', 'fingerprint', 'created_at']).where('name', 'in', names).execute();
  const wrong = stored.filter((row) => row.fingerprint !== keyFingerprint(keys[row.name as keyof Keys]));
  if (wrong.length === 0) return;
  const list = wrong.map((row) => row.name).join(' and ');
  const since = new Date(wrong[0].created_at).toISOString().slice(0, 10);
  throw new KeyMismatchError(
    `${list} ${wrong.length > 1 ? 'differ' : 'differs'} from the key the database (${where}) has used since ${since}. ` +
      'With this key the stored webhooks and store credentials cannot be decrypted (ENCRYPTION_KEY) and sign-ins ' +
      'cannot be verified (AUTH_SECRET), so ARB will not start. Start it with the original value: the same ' +
      'AUTH_SECRET/ENCRYPTION_KEY as the other hosts, or the DATA_DIR/secrets.json this database was created with.',
  );
}
