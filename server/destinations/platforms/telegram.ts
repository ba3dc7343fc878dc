/**
 * Telegram through the Bot API: `sendMessage` with `parse_mode: 'HTML'`. The destination's URL is
 * `https://api.telegram.org/bot<token>/sendMessage?chat_id=<chat>` (and `message_thread_id` for a forum topic); ARB
 * posts to the URL without its query and names the chat in the body (`answers.sendBody`). Telegram's HTML wants every
 * `<`, `>` and `&` that is not ours as an entity, so review text is escaped exactly so, and '@' is broken by a
 * zero-width space so a review cannot mention anyone. A message is at most 4,096 characters after Telegram reads the
 * tags; ARB keeps the whole HTML within 4,096, which is stricter, and shortens only the raw text before escaping it,
 * so a cut never falls inside a tag or an entity. Link previews are off: the only links are the store's and ARB's.
 */
import type { AlertMessageInput, FormattedMessage, ReviewMessageInput, SummaryMessageInput, WelcomeMessageInput } from '../types';
import { alertView, withCited } from '../format/alertView';
import { breakMentions, fitRendered } from '../format/text';
import { reviewFacts, reviewView, welcomeView } from '../format/view';
import { summaryFacts, summaryView } from '../format/summaryView';
import { PLATFORM_NAMES, type AnswerRules, type DeliveryOutcome } from '../answers';

export const TELEGRAM_LIMITS = { text: 4_096, title: 300, factValue: 300 } as const;

export type TelegramPayload = {
  text: string;
  parse_mode: 'HTML';
  link_preview_options: { is_disabled: true };
};
/** What is posted: the payload with the chat (and topic) of the destination's URL. */
export type TelegramRequest = TelegramPayload & { chat_id: string; message_thread_id?: number };

/** Telegram HTML for text that is not ours: & < > as entities (the three Telegram asks for), '@' broken. */
export function escapeTelegram(s: string): string {
  return breakMentions(s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
}
const fit = (raw: string, max: number) => fitRendered(raw, max, escapeTelegram);
/** An href: the URL is normalised by safeLink already; & and " are still written as entities inside the attribute. */
const link = (url: string, label: string) => `<a href="${url.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">${escapeTelegram(label)}</a>`;

function payload(text: string): FormattedMessage {
  const body: TelegramPayload = { text, parse_mode: 'HTML', link_preview_options: { is_disabled: true } };
  return { kind: 'json', body };
}

export function formatReview(input: ReviewMessageInput): FormattedMessage {
  const v = reviewView(input);
  const change = v.kind === 'updated' && v.previousStars ? ` · was ${v.previousStars}, now ${v.stars}` : '';
  const head = [
    `<b>${v.stars} ${v.title ? fit(v.title, TELEGRAM_LIMITS.title) : v.heading}</b>`,
    `${v.kind === 'updated' ? '✏️ ' : ''}${v.heading} of <b>${fit(v.appTitle, 200)}</b> on ${v.storeName}${change}`,
  ].join('\n');
  const facts = reviewFacts(v)
    .map(([label, value]) => `<b>${label}:</b> ${fit(value, TELEGRAM_LIMITS.factValue)}`)
    .join('\n');
  const tail = [facts, v.link ? link(v.link, v.linkLabel) : null].filter(Boolean).join('\n\n');

  const assemble = (body: string, translation: string | null) =>
    [
      head,
      body ? `<blockquote expandable>${body}</blockquote>` : '<i>No written review, rating only.</i>',
      translation != null ? `<b>Translation (${escapeTelegram(v.translation!.languageName)})</b>\n${translation}` : null,
      tail,
    ]
      .filter((part) => part != null)
      .join('\n\n');

  // The fixed parts first (measured with a one-character review, then less that character); the translation gets a
  // third of what is left, the review the rest.
  const fixed = v.body ? assemble('x', v.translation ? '' : null).length - 1 : assemble('', v.translation ? '' : null).length;
  const room = TELEGRAM_LIMITS.text - fixed;
  const translation = v.translation ? fit(v.translation.text, Math.floor(room / 3)) : null;
  const body = v.body ? fit(v.body, room - (translation?.length ?? 0)) : '';
  return payload(assemble(body, translation));
}

export function formatWelcome(input: WelcomeMessageInput): FormattedMessage {
  const w = welcomeView(input);
  const lines = [`<b>👋 ${w.heading}</b>`, fit(w.text, 2_000)];
  if (w.manageUrl) lines.push(link(w.manageUrl, 'Manage this chat in ARB'));
  return payload(lines.join('\n\n'));
}

/** A spike alert: bold title, the facts, each cited review quoted with its link; the last ones left out until it fits. */
export function formatAlert(input: AlertMessageInput): FormattedMessage {
  const a = alertView(input);
  const cited = a.cited.map(
    (r) =>
      `<b>${r.stars}${r.title ? ` ${fit(r.title, 100)}` : ''}</b>\n<blockquote>${fit(r.excerpt, 600)}</blockquote>\n<i>${fit(r.byline, 150)}</i>` +
      (r.link ? ` · ${link(r.link, 'Open')}` : ''),
  );
  const assemble = (reviews: string[]) =>
    [
      `<b>${fit(a.title, TELEGRAM_LIMITS.title)}</b>`,
      [...a.what, a.since, ...(a.concentration ? [a.concentration] : [])].map((line) => fit(line, 300)).join('\n'),
      ...reviews,
      a.inboxUrl ? link(a.inboxUrl, a.inboxLabel) : null,
    ]
      .filter((part): part is string => part != null)
      .join('\n\n');
  return payload(withCited(cited.length, (n) => assemble(cited.slice(0, n)), (text) => text.length <= TELEGRAM_LIMITS.text));
}

/** A weekly summary: the fixed parts have budgets, the themes (or quotes) the rest, the last ones left out until it fits. */
export function formatSummary(input: SummaryMessageInput): FormattedMessage {
  const s = summaryView(input);
  const head = [
    `<b>${fit(s.title, 300)}</b>`,
    `<i>${fit(s.label, 400)}</i>`,
    s.overview ? fit(s.overview, 900) : null,
    `<b>What changed</b>\n${fit(summaryFacts(s).join('\n'), 900)}`,
    s.items.length ? `<b>${escapeTelegram(s.itemsHeading)}</b>` : null,
  ];
  const items = s.items.map((item) =>
    [
      item.heading ? `<b>${fit(item.heading, 200)}</b>` : null,
      item.text ? fit(item.text, 500) : null,
      ...item.quotes.map((q) => `${q.stars} “${fit(q.text, 300)}” <i>${fit(q.why, 120)}</i>${q.link ? ` · ${link(q.link, 'Open')}` : ''}`),
    ]
      .filter(Boolean)
      .join('\n'),
  );
  const tail = [s.note ? `<i>${fit(s.note, 300)}</i>` : null, s.inboxUrl ? link(s.inboxUrl, s.inboxLabel) : null];
  const assemble = (n: number) => [...head, ...items.slice(0, n), ...tail].filter((part): part is string => part != null).join('\n\n');
  return payload(withCited(items.length, assemble, (text) => text.length <= TELEGRAM_LIMITS.text));
}

// ── Telegram's answers ──────────────────────────────────────────────────────────────────────────────────────────

/** Telegram's error: `{ ok: false, error_code, description, parameters?: { retry_after?, migrate_to_chat_id? } }`. */
const descriptionOf = (json: Record<string, unknown> | null) =>
  typeof json?.description === 'string' ? json.description.replace(/\s+/g, ' ').trim().slice(0, 160) : '';
const parametersOf = (json: Record<string, unknown> | null) =>
  (json?.parameters && typeof json.parameters === 'object' ? json.parameters : {}) as Record<string, unknown>;

const said = (status: number, description: string) => `HTTP ${status}${description ? `, ${description}` : ''}`;
const goneBecause = (status: number, description: string, why: string, todo: string): DeliveryOutcome => ({
  type: 'gone',
  status,
  error: `${PLATFORM_NAMES.telegram} refused the message: ${why} (${said(status, description)}). ${todo}`,
});

const RECONNECT = 'Connect it again to keep receiving reviews.';

/** What a 403's description means, in the words of the person who connected the bot. */
const FORBIDDEN: Array<{ test: RegExp; why: string; todo: string }> = [
  { test: /bot was blocked by the user/i, why: 'the person this bot writes to has blocked it', todo: `Unblock the bot in Telegram (open its chat and press Restart), then ${RECONNECT.toLowerCase()}` },
  { test: /bot was kicked/i, why: 'the bot was removed from the group or channel', todo: `Add the bot to the chat again, then ${RECONNECT.toLowerCase()}` },
  { test: /bot is not a member/i, why: 'the bot is not a member of that channel or group', todo: `Add the bot to the chat (as an administrator in a channel), then ${RECONNECT.toLowerCase()}` },
  { test: /user is deactivated/i, why: 'the Telegram account this bot writes to was deleted', todo: 'Connect another chat to keep receiving reviews.' },
  { test: /can't initiate conversation|can’t initiate conversation/i, why: 'the person has not started a chat with the bot yet', todo: `Open the bot in Telegram and press Start, then ${RECONNECT.toLowerCase()}` },
  { test: /not enough rights|have no rights/i, why: 'the bot may not post in that chat', todo: `Let the bot post messages (in a channel: make it an administrator), then ${RECONNECT.toLowerCase()}` },
];

/**
 * Telegram's answers: 429 carries the wait in `parameters.retry_after`; a 403 (blocked, kicked, not a member) and a
 * 401 (the token was revoked in @BotFather) or 404 (no such bot) disable the destination with the reason in words; a
 * 400 "chat not found" or a group that became a supergroup (`migrate_to_chat_id`) does too; any other 400 (a message
 * Telegram could not read) is about this message.
 */
export const answers: AnswerRules = {
  bodyWaitSeconds: (json) => {
    const wait = parametersOf(json).retry_after;
    return typeof wait === 'number' ? wait : undefined;
  },
  refusal: (status, _body, json) => {
    const description = descriptionOf(json);
    if (status === 401) return goneBecause(status, description, 'the bot token is no longer valid — it was revoked or replaced in @BotFather', `Copy the bot’s new token from @BotFather and ${RECONNECT.toLowerCase()}`);
    if (status === 404) return goneBecause(status, description, 'there is no bot with that token', `Copy the token from @BotFather again and ${RECONNECT.toLowerCase()}`);
    if (status === 403) {
      const rule = FORBIDDEN.find((r) => r.test.test(description));
      return rule
        ? goneBecause(status, description, rule.why, rule.todo)
        : goneBecause(status, description, 'the bot may no longer post in that chat', `Check that the bot is still in the chat, then ${RECONNECT.toLowerCase()}`);
    }
    if (status === 400) {
      const migrated = parametersOf(json).migrate_to_chat_id;
      if (typeof migrated === 'number' || /upgraded to a supergroup/i.test(description)) {
        const to = typeof migrated === 'number' ? ` Its new chat id is ${migrated}: use chat_id=${migrated} in the URL and connect it again.` : ` ${RECONNECT}`;
        return { type: 'gone', status, error: `${PLATFORM_NAMES.telegram} refused the message: the group became a supergroup, which has a new chat id (${said(status, description)}).${to}` };
      }
      if (/chat not found/i.test(description)) {
        return goneBecause(status, description, 'the chat was not found — the chat id is wrong, or the bot was never added to the chat', `Check the chat_id, add the bot to the chat, then ${RECONNECT.toLowerCase()}`);
      }
      return { type: 'rejected', status, error: `${PLATFORM_NAMES.telegram} did not accept this message (${said(status, description)}).` };
    }
    return undefined;
  },
  sendUrl: (url) => {
    const u = new URL(url);
    u.search = '';
    return u.toString();
  },
  sendBody: (url, body) => {
    const q = new URL(url).searchParams;
    const topic = q.get('message_thread_id');
    const request: TelegramRequest = {
      chat_id: q.get('chat_id') ?? '',
      ...(topic ? { message_thread_id: Number(topic) } : {}),
      ...(body as TelegramPayload),
    };
    return request;
  },
};
