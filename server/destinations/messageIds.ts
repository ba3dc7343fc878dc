/**
 * The ids messages are sent under: Standard Webhooks' `webhook-id` (and `Idempotency-Key` on every platform). A
 * receiver that follows the specification drops a message whose id it has seen, so an id must never be reused for
 * another message — not by a second ARB installation posting to the same receiver, nor by a database restored from a
 * backup — and must stay the same on every retry of one message.
 *
 * A queued message gets its id from the database, in the INSERT that creates its row (`deliveries.webhook_id`, default
 * `webhook_message_id()`, migration 0034): 'msg_' + a ULID's 128 bits in hexadecimal, i.e. 12 hex digits of the
 * creation time in milliseconds and 20 of randomness. `newMessageId` makes the same kind of id here, for messages
 * sent outside the queue (the dashboard's test message).
 */
import { randomBytes } from 'node:crypto';

export const MESSAGE_ID_PREFIX = 'msg_';

/** 'msg_' + 48 bits of milliseconds + 80 random bits, in hexadecimal (as webhook_message_id() in SQL). */
export function newMessageId(now = Date.now()): string {
  return MESSAGE_ID_PREFIX + Math.floor(now).toString(16).padStart(12, '0') + randomBytes(10).toString('hex');
}

/**
 * The id of a queued message: its stored one, or for a row queued before migration 0034 (webhook_id null), one made
 * of its destination's id and its row id. Destination ids are random (dst_ + 24 base62 characters), so that is as
 * unique across installations as a new id, it is the same on every retry, and a restored copy of the row is the same
 * message under the same id. (Those rows were sent as `arb-delivery-<row id>` before: a message whose earlier attempt
 * reached the receiver under that name can arrive once more after the upgrade, where the old name could make a
 * receiver drop a message it never had.)
 */
export function messageIdOf(delivery: { id: number | string; webhook_id?: string | null }, destinationId: string): string {
  return delivery.webhook_id ?? `${MESSAGE_ID_PREFIX}${destinationId}-${delivery.id}`;
}
