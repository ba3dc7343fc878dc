/**
 * One thing typed to ARB in Slack (`/arb …` or a mention) → the Slack message that answers it. Shared by the slash
 * command (askCommand.ts) and the Events API (askEvents.ts), which only differ in how the answer is delivered.
 *
 *   ""/"help" → the help; "apps" → the apps a question here reads (askScope.ts); anything else is a question:
 *   the scope → the plan's Ask ARB questions (server/askArb/allowance.ts, counted as on the dashboard) → the same
 *   grounded answer as the dashboard's Ask ARB (the model's tool loop with LLM_BASE_URL, else the computed answers;
 *   citations only of reviews the tools returned, links and addresses removed: server/askArb/answerText.ts) → mrkdwn
 *   with each [n] linked to the review in ARB (askMessage.ts).
 *
 * A Slack question is a one-off: it is not stored as a dashboard chat, and has no earlier turns.
 */
import { env } from '../env';
import { HttpError } from '../http/errors';
import { log } from '../log';
import { llmConfig } from '../ai/llm/config';
import { LlmError } from '../ai/llm/errors';
import { countOrgQuestion } from '../askArb/allowance';
import { llmAnswer } from '../askArb/chat';
import { computedAnswer } from '../askArb/computed';
import { answerScope, readQuestion } from '../askArb/conversation';
import type { Answer } from '../askArb/answerText';
import type { AskScope } from '../askArb/types';
import { slackAnswer, slackAppsList, slackHelp } from './askMessage';
import { slackAskScope, type SlackPlace } from './askScope';

/** As on the dashboard (server/askArb/endpoints.ts). */
export const SLACK_QUESTION_MAX_CHARS = 2_000;

export type SlackAsked = { kind: 'help' } | { kind: 'apps' } | { kind: 'question'; question: string };

/** What was typed after `/arb` or the mention. */
export function readAsked(text: string): SlackAsked {
  const t = text.trim();
  if (!t || /^(help|\?)$/i.test(t)) return { kind: 'help' };
  if (/^apps$/i.test(t)) return { kind: 'apps' };
  return { kind: 'question', question: t };
}

/** `public`: the channel may see it (an answer in a channel); otherwise only the asker (help, refusals, a DM's answer). */
export type SlackAskReply = { text: string; public: boolean };

export type AskOptions = {
  /** How the asker calls ARB here, for the help: `/arb`, or the app's mention. */
  command: string;
  /** Whether the reply can be shown to the asker alone (a slash command's); a one-time link goes only there. */
  privateReply: boolean;
};

const privately = (text: string): SlackAskReply => ({ text, public: false });

/** The help or the apps at once (no model, a few reads); a question's answer is `answer` below. */
export async function replyWithoutModel(place: SlackPlace, asked: Exclude<SlackAsked, { kind: 'question' }>, options: AskOptions): Promise<SlackAskReply> {
  if (asked.kind === 'help') return privately(slackHelp(options.command));
  const found = await slackAskScope(place, { allowLink: options.privateReply });
  if ('note' in found) return privately(found.note);
  return privately(slackAppsList(found.scope.apps, found.where, found.orgName));
}

/** The dashboard's answerers, for a question without a chat (askArb/conversation.ts reads and scopes it the same way). */
async function groundedAnswer(scope: AskScope, question: string): Promise<Answer> {
  const prepared = { scope, question, previous: { filters: {}, intent: null, topic: null } };
  const parsed = readQuestion(prepared);
  const input = { scope: answerScope(prepared, parsed), question, parsed, history: [] };
  const ignore = { text: () => {}, citation: () => {} };
  return llmConfig() ? llmAnswer(input, ignore) : computedAnswer(input, ignore);
}

export async function answerQuestionInSlack(place: SlackPlace, question: string, options: AskOptions): Promise<SlackAskReply> {
  if (question.length > SLACK_QUESTION_MAX_CHARS) return privately(`Ask in at most ${SLACK_QUESTION_MAX_CHARS.toLocaleString('en-US')} characters, please: this question has ${question.length.toLocaleString('en-US')}.`);
  const found = await slackAskScope(place, { allowLink: options.privateReply });
  if ('note' in found) return privately(found.note);
  try {
    await countOrgQuestion(found.scope.orgId);
  } catch (err) {
    // The plan's words (402: not included, or this month's questions used), as the dashboard says them.
    if (err instanceof HttpError) return privately(`${err.message} This question was not answered.`);
    throw err;
  }
  let answer: Answer;
  try {
    answer = await groundedAnswer(found.scope, question);
  } catch (err) {
    if (err instanceof LlmError && err.code === 'budget') return privately(err.message);
    if (err instanceof LlmError) {
      log.warn('slack ask: the language model did not answer', { code: err.code });
      return privately(`The language model did not answer (${err.message}). Ask again in a moment.`);
    }
    throw err;
  }
  const text = slackAnswer({ question, content: answer.content, citations: answer.citations, appUrl: env().APP_URL, askerId: place.userId });
  log.info('slack ask answered', { team: place.teamId, where: found.where, method: answer.method, citations: answer.citations.length });
  // A DM's answer reads the whole organisation: shown to the asker alone, since the DM's other side may not be a member.
  return { text, public: found.where === 'channel' };
}
