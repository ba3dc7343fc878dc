/**
 * Data layer of e-mail consent: when a pending e-mail destination's confirmation e-mail may go out. The claim is one
 * conditional UPDATE, so two requests at once (or two processes) cannot both send one within the cooldown.
 */
import { sql } from 'kysely';
import { getDb } from '../db/client';
import { msInterval as ms } from '../db/interval';

/**
 * Takes the right to send the confirmation e-mail now: true when none was sent in the last `cooldownMs` (and the
 * destination is still pending); the send time is recorded at once. `previous` gives it back if the send fails.
 */
export async function claimConfirmationSend(
  destinationId: string,
  cooldownMs: number,
): Promise<{ claimed: true; sentAt: Date; previous: Date | null } | { claimed: false; sentAt: Date | null }> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('destinations')
      .select(['status', 'confirmation_sent_at'])
      .where('id', '=', destinationId)
      .forUpdate()
      .executeTakeFirst();
    if (!row || row.status !== 'pending_confirmation') return { claimed: false, sentAt: row?.confirmation_sent_at ?? null };
    const claimed = await trx
      .updateTable('destinations')
      .set({ confirmation_sent_at: sql`now()` })
      .where('id', '=', destinationId)
      .where((eb) => eb.or([eb('confirmation_sent_at', 'is', null), eb('confirmation_sent_at', '<=', sql<Date>`now() - ${ms(cooldownMs)}`)]))
      .returning('confirmation_sent_at')
      .executeTakeFirst();
    return claimed?.confirmation_sent_at
      ? { claimed: true, sentAt: new Date(claimed.confirmation_sent_at), previous: row.confirmation_sent_at }
      : { claimed: false, sentAt: row.confirmation_sent_at };
  });
}

/** The confirmation e-mail could not be sent: the next request may send it at once. */
export async function releaseConfirmationSend(destinationId: string, previous: Date | null): Promise<void> {
  const db = await getDb();
  await db.updateTable('destinations').set({ confirmation_sent_at: previous }).where('id', '=', destinationId).execute();
}
