/**
 * POST v1/slack/commands — the `/arb` slash command's Request URL (a signed form: askCommand.ts).
 * POST v1/slack/events   — the Events API's Request URL (signed JSON: askEvents.ts), for mentions of the app.
 * Both are signed with the app's Signing Secret and checked as the interactions are (signedRequest.ts): unsigned,
 * stale or mis-signed requests get 401 and change nothing. Both answer at once and do the slow part (the answer)
 * after the response is sent, never failing the request.
 */
import { endpoint, RAW } from '../http/api';
import { badRequest } from '../http/errors';
import { handleSlashCommand } from './askCommand';
import { handleSlackEvent, type SlackEventsBody } from './askEvents';
import { readSignedSlackBody } from './signedRequest';

/** A command's form and an event's JSON are a few KiB. */
const MAX_BYTES = 64 * 1024;
const NOT_CONFIGURED = 'Asking ARB from Slack is not set up on this ARB server: its operator can turn it on.';

type Log = { error(msg: string, fields?: Record<string, unknown>): void };
/** The work that follows the answer: never awaited by the request, never failing it. */
function runAfter(work: (() => Promise<void>) | undefined, log: Log, what: string): void {
  if (!work) return;
  work().catch((err: unknown) => log.error(`slack ${what} follow-up failed`, { err: (err as Error).message }));
}

export const slackCommandsEndpoint = endpoint({
  statuses: [401, 404],
  summary: 'Slack slash command /arb: ask ARB about the reviews of the channel’s apps (signed by Slack)',
  tags: ['slack'],
  contentTypes: ['application/x-www-form-urlencoded'],
  maxBodyBytes: MAX_BYTES,
  handler: async ({ req, res, log }) => {
    const raw = await readSignedSlackBody(req, log, MAX_BYTES, NOT_CONFIGURED);
    const answer = await handleSlashCommand(new URLSearchParams(raw));
    res.statusCode = 200;
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(JSON.stringify(answer.body));
    runAfter(answer.after, log, 'command');
    return RAW;
  },
});

export const slackEventsEndpoint = endpoint({
  statuses: [401, 404],
  summary: 'Slack Events API: mentions of the app answered in their thread (signed by Slack)',
  tags: ['slack'],
  contentTypes: ['application/json'],
  maxBodyBytes: MAX_BYTES,
  handler: async ({ req, res, log }) => {
    const raw = await readSignedSlackBody(req, log, MAX_BYTES, NOT_CONFIGURED);
    let body: SlackEventsBody;
    try {
      body = JSON.parse(raw) as SlackEventsBody;
    } catch {
      throw badRequest('The body is not JSON.');
    }
    if (!body || typeof body !== 'object') throw badRequest('The body is not a JSON object.');
    const answer = await handleSlackEvent(body);
    res.statusCode = 200;
    res.setHeader('Cache-Control', 'no-store');
    if (answer.challenge !== undefined) {
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(JSON.stringify({ challenge: answer.challenge }));
    } else res.end();
    runAfter(answer.after, log, 'event');
    return RAW;
  },
});
