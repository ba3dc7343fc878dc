/**
 * POST v1/slack/interactions — Slack's Interactivity Request URL: the Reply button's clicks and the reply form's
 * submissions, as Slack sends them (a form with one field, `payload`, holding JSON), signed with the app's Signing
 * Secret. Unsigned, stale or mis-signed requests get 401 and change nothing; unsigned and stale ones before their body
 * is read.
 */
import { endpoint, RAW } from '../http/api';
import { badRequest } from '../http/errors';
import { handleInteraction } from './interactions';
import type { SlackInteractionPayload } from './payload';
import { readSignedSlackBody } from './signedRequest';

/** Slack's payloads (a message's blocks, a form's state) stay well under this. */
const MAX_BYTES = 256 * 1024;

export const slackInteractionsEndpoint = endpoint({
  statuses: [401, 404],
  summary: 'Slack interactivity: the Reply button on review messages and the reply form (signed by Slack)',
  tags: ['slack'],
  contentTypes: ['application/x-www-form-urlencoded'],
  maxBodyBytes: MAX_BYTES,
  handler: async ({ req, res, log }) => {
    const raw = await readSignedSlackBody(req, log, MAX_BYTES, 'Replying from Slack is not set up on this ARB server: its operator can turn it on.');
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
