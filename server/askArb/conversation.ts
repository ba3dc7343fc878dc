/**
 * One question in an Ask ARB chat, from the request to the stored answer:
 *
 *  1. **Who and what** (`prepareQuestion`, before anything is streamed, so refusals are plain JSON 4xx): a signed-in
 *     caller asks over their organisation's apps (or one of them, named by `app_id`/`app_store`) and continues only
 *     their organisation's chats; a visitor names any app, which is fetched from its store and stored if ARB does not
 *     know it yet (the path the reviews-by-e-mail form takes), and continues only visitors' chats of that app. Another
 *     organisation's chat, like one that does not exist, is a 404.
 *  2. **The allowance**: the plan's monthly questions (402) or the network's daily questions (429), counted once per
 *     question.
 *  3. **The answer** (`answerQuestion`): with a language model, the tool loop of chat.ts; without one, what can be
 *     computed (computed.ts). Both stream through `AnswerOutput` and are stored with the question when done.
 */
import type { AuthClaims } from '../auth/tokens';
import { HttpError, badRequest, notFound } from '../http/errors';
import { membershipOf } from '../org/membership';
import { registerApp } from '../connect/apps';
import { appKey } from '../monitor/service';
import { ensureFreshReviews, ReviewsUnavailableError } from '../subscriptions/reviews';
import { llmConfig } from '../ai/llm/config';
import { log } from '../log';
import type { AskMessage, AskRole } from '@/shared/askArb';
import { countOrgQuestion, countVisitorQuestion } from './allowance';
import { assertVisitorTokensLeft } from './visitorBudget';
import { appByKey, appendMessages, chatMessages, createChat, getChat, type ChatRow } from './chatData';
import { orgScope as orgApps } from './tools';
import { LIST_VERBS, asksAllApps, parseQuestion } from './question';
import { llmAnswer } from './chat';
import { computedAnswer } from './computed';
import type { AnswerOutput, Turn } from './answerText';
import type { AskFilters, AskIntent, AskScope, AskStore, ParsedQuestion } from './types';

export type AskInput = {
  messages: Array<{ role: AskRole; content: string }>;
  app?: { appStore: AskStore; appId: string };
  chatId?: string;
};


export type PreparedQuestion = {
  chat: ChatRow;
  scope: AskScope;
  question: string;
  /** Earlier turns: the stored chat's, or those the request carried for a new chat. */
  history: Turn[];
  /** The chat's last question as read: its filters, intent and topic. */
  previous: { filters: AskFilters; intent: AskIntent | null; topic: string | null };
  /** The dashboard's app in view (the request's app_id/app_store, signed in): the scope unless the question names apps. */
  view?: AskScope['apps'][number];
};

/** "and in Germany?", "what about 5 stars?": a follow-up that changes filters and keeps asking the same thing. */
const FOLLOW_UP = /^\s*(and|also|what about|how about|same|now|but)\b/i;

/** The question read (question.ts), a follow-up keeping the previous question's intent and topic. */
export function readQuestion(p: Pick<PreparedQuestion, 'scope' | 'question' | 'previous'>, now = new Date()): ParsedQuestion {
  const parsed = parseQuestion(p.question, { scope: p.scope, now, previous: p.previous.filters });
  // "and 5 stars?" after a count: the mention of stars alone reads as a listing, but the follow-up asks the same thing.
  const weakIntent = parsed.intent === 'other' || (parsed.intent === 'reviews_about' && !parsed.topic && !LIST_VERBS.test(p.question.toLowerCase()));
  if (weakIntent && p.previous.intent && FOLLOW_UP.test(p.question)) {
    return { ...parsed, intent: p.previous.intent, ...(parsed.topic || !p.previous.topic ? {} : { topic: p.previous.topic }) };
  }
  return parsed;
}

/** Earlier turns handed to the model: the last few are enough for a follow-up. */
const HISTORY_TURNS = 10;

const sameApp = (a: { appStore: string; appId: string }, b: { appStore: string; appId: string }) => a.appStore === b.appStore && a.appId === b.appId;

/** Every app of the organisation (a question may name any of them), and the app in view when the request names one. */
async function orgScope(orgId: string, app: AskInput['app']): Promise<{ scope: AskScope; view?: AskScope['apps'][number] }> {
  const { apps } = await orgApps(orgId);
  if (app) {
    const own = apps.find((a) => sameApp(a, app));
    if (!own) throw notFound(`${app.appId} is not one of your organisation's apps. Add it in the dashboard first.`);
    return { scope: { orgId, apps }, view: own };
  }
  if (!apps.length) throw new HttpError(409, 'no_apps', 'Your organisation has no apps yet. Add one in the dashboard to ask about its reviews.');
  return { scope: { orgId, apps } };
}

/**
 * The apps this question reads: those it names (or its follow-up keeps), else the app in view, else the whole scope
 * ("all my apps" always the whole scope).
 */
export function answerScope(p: Pick<PreparedQuestion, 'scope' | 'question' | 'view'>, parsed: ParsedQuestion): AskScope {
  const named = parsed.filters.apps;
  if (named?.length) return { ...p.scope, apps: p.scope.apps.filter((a) => named.some((n) => sameApp(a, n))) };
  if (p.view && !asksAllApps(p.question)) return { ...p.scope, apps: [p.view] };
  return p.scope;
}

/** A visitor's app: registered (read from its store) if new, and its reviews fetched when not read recently. */
async function visitorScope(app: NonNullable<AskInput['app']>): Promise<AskScope> {
  const registered = await registerApp({ store: app.appStore, appId: app.appId }, 'us');
  try {
    await ensureFreshReviews({ store: app.appStore, appId: registered.app_id }, '');
  } catch (err) {
    if (!(err instanceof ReviewsUnavailableError)) throw err;
    throw new HttpError(502, 'reviews_unavailable', `We couldn't read the reviews of ${registered.title} from the store right now. Try again in a few minutes.`);
  }
  return { orgId: null, apps: [{ appStore: app.appStore, appId: registered.app_id, title: registered.title }] };
}

/** Everything before the answer: the chat, the apps the question may read, the allowance. Throws HttpError. */
export async function prepareQuestion(input: AskInput, caller: { auth: AuthClaims | null; ip: string }): Promise<PreparedQuestion> {
  const last = input.messages[input.messages.length - 1];
  if (last.role !== 'user') throw badRequest("messages: the last message must be the user's question.");
  const orgId = caller.auth ? (await membershipOf(caller.auth)).orgId : null;

  let chat: ChatRow | undefined;
  if (input.chatId) {
    chat = await getChat(input.chatId);
    // A chat of another organisation, or an organisation's chat asked without signing in, does not exist for the caller.
    if (!chat || chat.org_id !== orgId) throw notFound('There is no chat with this id. Start a new one.');
  }

  let scope: AskScope;
  let view: AskScope['apps'][number] | undefined;
  if (orgId) {
    ({ scope, view } = await orgScope(orgId, input.app));
    await countOrgQuestion(orgId);
  } else {
    const chatApp = chat?.app_key ? await appByKey(chat.app_key) : undefined;
    const app = input.app ?? chatApp;
    if (!app) throw badRequest('app_id and app_store are required without signing in: pick the app to ask about.');
    if (chatApp && !sameApp(chatApp, app)) throw badRequest(`This chat is about ${chatApp.title}. Start a new chat to ask about another app.`);
    // The visitors' day of model tokens first: a question refused for it is not one of the network's questions.
    if (llmConfig()) await assertVisitorTokensLeft();
    await countVisitorQuestion(caller.ip);
    scope = await visitorScope(app);
  }

  let history: Turn[];
  if (chat) history = (await chatMessages(chat.id)).map((m) => ({ role: m.role, content: m.content }));
  else {
    history = input.messages.slice(0, -1);
    const only = scope.apps.length === 1 && !orgId ? scope.apps[0] : null;
    chat = await createChat({ orgId, appKey: only ? appKey({ store: only.appStore, appId: only.appId }) : null });
  }
  return { chat, scope, question: last.content, history: history.slice(-HISTORY_TURNS), previous: { filters: chat.filters, intent: chat.intent, topic: chat.topic }, ...(view ? { view } : {}) };
}

/** The answer, streamed through `out` and stored with its question; the stored answer. */
export async function answerQuestion(p: PreparedQuestion, out: AnswerOutput, signal?: AbortSignal): Promise<AskMessage> {
  const parsed = readQuestion(p);
  const input = { scope: answerScope(p, parsed), question: p.question, parsed, history: p.history };
  const answer = llmConfig() ? await llmAnswer(input, out, signal) : await computedAnswer(input, out);
  const [, stored] = await appendMessages(
    p.chat.id,
    [
      { role: 'user', content: p.question, method: 'none' },
      { role: 'assistant', content: answer.content, citations: answer.citations, method: answer.method },
    ],
    parsed,
  );
  log.debug('ask-arb answered', { chatId: p.chat.id, method: answer.method, citations: answer.citations.length });
  return stored;
}

export async function chatHistory(id: string, auth: AuthClaims | null) {
  const chat = await getChat(id);
  const orgId = chat?.org_id ? (auth ? (await membershipOf(auth)).orgId : null) : null;
  if (!chat || chat.org_id !== orgId) throw notFound('There is no chat with this id.');
  return { id: chat.id, messages: await chatMessages(chat.id) };
}
