/**
 * The `/arb` slash command. Slack posts a signed form (team_id, channel_id, user_id, user_name, command, text,
 * response_url, …) and wants an answer within 3 seconds; a model takes longer. So:
 *
 *   help / apps   → answered in the response itself (ephemeral: only the asker sees it)
 *   a question    → "Thinking…" in the response (ephemeral), then, after it is sent, the answer posted to the
 *                   command's response_url: `in_channel` in a channel (everyone there reads that channel's reviews),
 *                   `ephemeral` for refusals and in a direct message (server/slack/ask.ts says which)
 *
 * A response_url takes messages for 30 minutes, far longer than an answer takes.
 */
import { env } from '../env';
import { log } from '../log';
import { readAsked, replyWithoutModel, answerQuestionInSlack, type SlackAskReply } from './ask';
import { slackText } from './askMessage';
import { isSlackResponseUrl, postToResponseUrl } from './web';

/** What the endpoint answers Slack at once, and the work that follows the answer. */
export type CommandAnswer = { body: { response_type: 'ephemeral'; text: string }; after?: () => Promise<void> };

const ephemeral = (text: string): CommandAnswer['body'] => ({ response_type: 'ephemeral', text });

const SLACK_ID = /^[A-Z0-9]{2,40}$/;

/** The slash command's form (already verified as Slack's) → the answer. */
export async function handleSlashCommand(form: URLSearchParams): Promise<CommandAnswer> {
  const teamId = form.get('team_id') ?? '';
  const channelId = form.get('channel_id') ?? '';
  const userId = form.get('user_id') ?? '';
  const command = /^\/[\w-]{1,31}$/.test(form.get('command') ?? '') ? form.get('command')! : '/arb';
  if (!SLACK_ID.test(teamId) || !SLACK_ID.test(channelId) || !SLACK_ID.test(userId)) {
    return { body: ephemeral('Slack did not say where this command came from, so ARB cannot answer it. Try again.') };
  }
  const place = { teamId, channelId, userId, userName: form.get('user_name') };
  const options = { command, privateReply: true };
  const asked = readAsked(form.get('text') ?? '');
  if (asked.kind !== 'question') return { body: ephemeral((await replyWithoutModel(place, asked, options)).text) };

  const responseUrl = form.get('response_url') ?? '';
  if (!isSlackResponseUrl(responseUrl, env().ALLOW_PRIVATE_WEBHOOKS, 'commands')) {
    log.warn('slack command with an unexpected response_url', { team: teamId });
    return { body: ephemeral('Slack did not give ARB a way to answer this command. Try again.') };
  }
  const question = asked.question;
  return {
    body: ephemeral(`Thinking about “${slackText(question.length > 200 ? `${question.slice(0, 200)}…` : question)}”…`),
    after: async () => {
      let reply: SlackAskReply;
      try {
        reply = await answerQuestionInSlack(place, question, options);
      } catch (err) {
        log.error('slack command answer failed', { err });
        reply = { text: 'ARB could not answer this question because of an error on its side. Ask again in a moment.', public: false };
      }
      const ok = await postToResponseUrl(responseUrl, { response_type: reply.public ? 'in_channel' : 'ephemeral', replace_original: false, text: reply.text });
      if (!ok) log.warn('slack command answer not delivered', { team: teamId });
    },
  };
}
