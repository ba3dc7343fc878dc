/**
 * The inbox's `starting_after`: an opaque cursor naming a review's place in the order (its updated_at to the
 * microsecond, and its id), so the next page starts right after it even if that review is edited meanwhile.
 */
import { badRequest } from '../http/errors';
import type { ReviewPosition } from './data';

export function encodeCursor(p: ReviewPosition): string {
  return Buffer.from(`${p.us}:${p.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): ReviewPosition {
  const text = /^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('latin1') : '';
  const m = /^(-?\d{1,18}):(\d{1,18})$/.exec(text);
  if (!m) throw badRequest('starting_after: not a cursor of this list. Use the next_cursor of the previous page.');
  return { us: m[1], id: m[2] };
}
