/**
 * The Events API (Event Subscriptions' Request URL): the app mentioned in a channel → the answer in the mention's
 * thread, posted with chat.postMessage and the workspace's bot token (scope chat:write; the mention needs
 * app_mentions:read).
 *
 *   url_verification                → its `challenge` echoed (Slack checks the URL this way when it is saved)
 *   event_callback / app_mention    → acknowledged at once (Slack wants 200 within 3 s and retries otherwise, up to
 *                                     three times, with X-Slack-Retry-Num), answered after: each event_id once
 *                                     (askData.ts takeSlackEvent), whether the retry reaches this process or another
 *   anything else, a bot's message  → acknowledged and ignored (a bot could otherwise talk to ARB in a loop)
 */
import { log } from '../log';
import { answerQuestionInSlack, readAsked, replyWithoutModel, type SlackAskReply } from './ask';
import { takeSlackEvent, workspaceBot } from './askData';
import { postMessage, SlackApiError } from './web';

export type SlackEventsBody = {
  type?: string;
  challenge?: string;
  team_id?: string;
  event_id?: string;
  event?: { type?: string; user?: string; bot_id?: string; subtype?: string; text?: string; ts?: string; thread_ts?: string; channel?: string; team?: string };
};

export type EventsAnswer = { challenge?: string; after?: () => Promise<void> };

const SLACK_ID = /^[A-Z0-9]{2,40}$/;
const SLACK_TS = /^\d{1,12}\.\d{1,8}$/;

/** The mention's text without the mentions of ARB at its start ("<@U0ARB> how many…" → "how many…"). */
export function withoutLeadingMentions(text: string): string {
  return text.replace(/^(\s*<@[A-Z0-9]+(\|[^>]*)?>[\s,:]*)+/, '').trim();
}

export async function handleSlackEvent(body: SlackEventsBody): Promise<EventsAnswer> {
  if (body.type === 'url_verification') return { challenge: typeof body.challenge === 'string' ? body.challenge : '' };
  const e = body.event;
  if (body.type !== 'event_callback' || e?.type !== 'app_mention') return {};
  if (e.bot_id || e.subtype) return {};
  const teamId = body.team_id ?? e.team ?? '';
  const { user, channel, ts } = e;
  if (!SLACK_ID.test(teamId) || !user || !SLACK_ID.test(user) || !channel || !SLACK_ID.test(channel) || !ts || !SLACK_TS.test(ts)) return {};
  if (!body.event_id || !(await takeSlackEvent(body.event_id))) return {};
  const threadTs = e.thread_ts && SLACK_TS.test(e.thread_ts) ? e.thread_ts : ts;
  const text = e.text ?? '';
  return {
    after: async () => {
      const bot = await workspaceBot(teamId);
      if (!bot) return log.warn('slack mention from a workspace ARB has no token for', { team: teamId });
      if (bot.botUserId && user === bot.botUserId) return;
      const place = { teamId, channelId: channel, userId: user };
      // In a thread everyone reads: no one-time link (it is the asker's alone); the help names the mention to use.
      const options = { command: '@ARB', privateReply: false };
      const asked = readAsked(withoutLeadingMentions(text));
      let reply: SlackAskReply;
      try {
        reply = asked.kind === 'question' ? await answerQuestionInSlack(place, asked.question, options) : await replyWithoutModel(place, asked, options);
      } catch (err) {
        log.error('slack mention answer failed', { err });
        reply = { text: 'ARB could not answer this question because of an error on its side. Ask again in a moment.', public: true };
      }
      try {
        await postMessage(bot.botToken, { channel, threadTs, text: reply.text });
      } catch (err) {
        log.warn('slack mention answer not posted', { team: teamId, code: err instanceof SlackApiError ? err.code : (err as Error).message });
      }
    },
  };
}
