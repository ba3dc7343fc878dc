/**
 * The raw body of a request Slack signed, or an HttpError: what every Slack endpoint (interactions, the slash command,
 * the Events API) checks before anything else. The timestamp's window and the signature's shape are checked from the
 * headers first, so a stale or unsigned request is refused unread and its connection closed rather than its body
 * drained; then the signature over the raw body (signature.ts).
 */
import type { IncomingMessage } from 'node:http';
import { env } from '../env';
import { readBody, UNREAD_BODY_HEADERS } from '../http/body';
import { HttpError, unauthorized } from '../http/errors';
import { checkSlackHeaders, verifySlackRequest } from './signature';

type Log = { info(msg: string, fields?: Record<string, unknown>): void; warn(msg: string, fields?: Record<string, unknown>): void };

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** `notConfigured`: the 404's words when SLACK_SIGNING_SECRET is not set (each endpoint names what is off). */
export async function readSignedSlackBody(req: IncomingMessage, log: Log, maxBytes: number, notConfigured: string): Promise<string> {
  const secret = env().SLACK_SIGNING_SECRET;
  if (!secret) throw new HttpError(404, 'slack_not_configured', notConfigured);
  const timestamp = header(req.headers['x-slack-request-timestamp']);
  const signature = header(req.headers['x-slack-signature']);
  const early = checkSlackHeaders({ timestamp, signature, nowSeconds: Math.floor(Date.now() / 1000) });
  if (!early.ok) {
    log.info('slack request refused before its body', { reason: early.reason });
    throw new HttpError(401, 'unauthorized', early.reason, UNREAD_BODY_HEADERS);
  }
  const raw = await readBody(req, maxBytes);
  const check = verifySlackRequest({ secret, timestamp, signature, body: raw, nowSeconds: Math.floor(Date.now() / 1000) });
  if (!check.ok) {
    log.warn('slack request refused', { reason: check.reason });
    throw unauthorized(check.reason);
  }
  return raw;
}
