/**
 * POST v1/slack/interactions — Slack's Interactivity Request URL: the Reply button's clicks and the reply form's
 * submissions, as Slack sends them (a form with one field, `payload`, holding JSON), signed with the app's Signing
 * Secret. Unsigned, stale or mis-signed requests get 401 and change nothing; unsigned and stale ones before their body
 * is read.
 */
import { endpoint, RAW } from '../http/api';
import { readBody, UNREAD_BODY_HEADERS } from '../http/body';
import { HttpError, badRequest, unauthorized } from '../http/errors';
import { env } from '../env';
import { handleInteraction } from './interactions';
import type { SlackInteractionPayload } from './payload';
import { checkSlackHeaders, verifySlackRequest } from './signature';

/** Slack's payloads (a message's blocks, a form's state) stay well under this. */
const MAX_BYTES = 256 * 1024;

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export const slackInteractionsEndpoint = endpoint({
  statuses: [401, 404],
  summary: 'Slack interactivity: the Reply button on review messages and the reply form (signed by Slack)',
  tags: ['slack'],
  contentTypes: ['application/x-www-form-urlencoded'],
  maxBodyBytes: MAX_BYTES,
  handler: async ({ req, res, log }) => {
    const secret = env().SLACK_SIGNING_SECRET;
    if (!secret) throw new HttpError(404, 'slack_not_configured', 'Replying from Slack is not set up on this ARB server: its operator can turn it on.');
    const timestamp = header(req.headers['x-slack-request-timestamp']);
    const signature = header(req.headers['x-slack-signature']);
    // The timestamp's window and the signature's shape first: a stale or unsigned request is refused unread, and the
    // connection closed rather than its body drained.
    const early = checkSlackHeaders({ timestamp, signature, nowSeconds: Math.floor(Date.now() / 1000) });
    if (!early.ok) {
      log.info('slack request refused before its body', { reason: early.reason });
      throw new HttpError(401, 'unauthorized', early.reason, UNREAD_BODY_HEADERS);
    }
    const raw = await readBody(req, MAX_BYTES);
    const check = verifySlackRequest({ secret, timestamp, signature, body: raw, nowSeconds: Math.floor(Date.now() / 1000) });
    if (!check.ok) {
      log.warn('slack request refused', { reason: check.reason });
      throw unauthorized(check.reason);
    }
    const field = new URLSearchParams(raw).get('payload');
    if (!field) throw badRequest('payload: missing (Slack sends the interaction as a form field named payload).');
    let payload: SlackInteractionPayload;
    try {
      payload = JSON.parse(field) as SlackInteractionPayload;
    } catch {
      throw badRequest('payload: not JSON.');
    }
    if (!payload || typeof payload !== 'object') throw badRequest('payload: not a JSON object.');
    const answer = await handleInteraction(payload);
    res.statusCode = 200;
    res.setHeader('Cache-Control', 'no-store');
    if (answer.kind === 'form_errors') {
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(JSON.stringify({ response_action: 'errors', errors: answer.errors }));
    } else {
      res.end();
      // Work Slack must not wait for (a draft from the language model): after the answer, never failing the request.
      answer.after?.().catch((err: unknown) => log.error('slack interaction follow-up failed', { err: (err as Error).message }));
    }
    return RAW;
  },
});
