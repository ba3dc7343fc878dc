/**
 * Google Chat incoming webhooks: one card (`cardsV2`) with `fallbackText`, the plain line a notification or a client
 * that cannot draw cards shows. Every message of an app goes to that app's thread (`thread.threadKey`, with
 * `messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD` on the URL: a space without threads, or a thread that is
 * gone, gets a new message instead of an error). Card text is Google Chat's small HTML subset, so review text is
 * HTML-escaped (& < >) and its line breaks become <br>; card headers and the fallback are plain text, where '<' and '@'
 * are broken by a zero-width space so `<users/all>` never mentions anyone. A message is at most 32,000 bytes; ARB
 * stays under 30,000 with fixed budgets for the review, its translation and each fact.
 */
import type { AlertMessageInput, AppInfo, FormattedMessage, ReviewMessageInput, SummaryMessageInput, WelcomeMessageInput } from '../types';
import { alertView, withCited } from '../format/alertView';
import { breakMentions, breakPlain, fitRendered, utf8Length } from '../format/text';
import { reviewFacts, reviewView, welcomeView } from '../format/view';
import { summaryFacts, summaryView } from '../format/summaryView';
import { type AnswerRules, type DeliveryOutcome, PLATFORM_NAMES } from '../answers';

export const GOOGLE_CHAT_LIMITS = {
  /** Google Chat's 32,000-byte message, with room to spare. */
  payloadBytes: 30_000,
  fallbackText: 300,
  headerTitle: 200,
  headerSubtitle: 200,
  /** Rendered characters; each is at most 3 bytes of JSON, so the budgets below add up to well under payloadBytes. */
  body: 4_000,
  translation: 2_500,
  factValue: 200,
  threadKey: 200,
} as const;

export type GoogleChatWidget =
  | { textParagraph: { text: string } }
  | { decoratedText: { topLabel: string; text: string; wrapText: true } }
  | { buttonList: { buttons: Array<{ text: string; onClick: { openLink: { url: string } } }> } }
  | { divider: Record<string, never> };
export type GoogleChatSection = { header?: string; widgets: GoogleChatWidget[] };
export type GoogleChatCard = { header: { title: string; subtitle?: string }; sections: GoogleChatSection[] };
export type GoogleChatPayload = {
  fallbackText: string;
  cardsV2: [{ cardId: string; card: GoogleChatCard }];
  thread: { threadKey: string };
};

/** Card text (HTML): & < > as entities, '@' broken, line breaks as <br>. */
export function escapeGoogleChat(s: string): string {
  return breakMentions(s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')).replace(/\n/g, '<br>');
}
const fit = (raw: string, max: number) => fitRendered(raw, max, escapeGoogleChat);
/** Card headers and the fallback are not HTML: nothing to escape, '<' and '@' broken. */
const plain = (raw: string, max: number) => fitRendered(raw, max, breakPlain);

/** The thread of an app's messages in a space: the same key for every message of the app (at most 4,000 characters). */
export function threadKeyOf(app: Pick<AppInfo, 'store' | 'appId'>): string {
  return `arb-${app.store}-${app.appId}`.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, GOOGLE_CHAT_LIMITS.threadKey);
}

/** A link for card HTML: the URL is already normalised by safeLink (no quotes, spaces or angle brackets). */
const link = (url: string, label: string) => `<a href="${url.replace(/&/g, '&amp;').replace(/"/g, '%22')}">${escapeGoogleChat(label)}</a>`;
const button = (url: string, text: string): GoogleChatWidget => ({ buttonList: { buttons: [{ text: plain(text, 100), onClick: { openLink: { url } } }] } });
const paragraph = (text: string): GoogleChatWidget => ({ textParagraph: { text } });

export const payloadBytes = (payload: unknown) => utf8Length(JSON.stringify(payload));

function message(cardId: string, app: AppInfo, fallback: string, card: GoogleChatCard): FormattedMessage {
  const payload: GoogleChatPayload = {
    fallbackText: plain(fallback, GOOGLE_CHAT_LIMITS.fallbackText),
    cardsV2: [{ cardId, card }],
    thread: { threadKey: threadKeyOf(app) },
  };
  return { kind: 'json', body: payload };
}

export function formatReview(input: ReviewMessageInput): FormattedMessage {
  const v = reviewView(input);
  const change = v.kind === 'updated' && v.previousStars ? ` · was ${v.previousStars}` : '';
  const header = {
    title: plain(`${v.kind === 'updated' ? '✏️ ' : ''}${v.stars} ${v.title ?? v.heading}`, GOOGLE_CHAT_LIMITS.headerTitle),
    subtitle: plain(`${v.heading} of ${v.appTitle} on ${v.storeName}${change}`, GOOGLE_CHAT_LIMITS.headerSubtitle),
  };
  const sections: GoogleChatSection[] = [
    { widgets: [paragraph(v.body ? fit(v.body, GOOGLE_CHAT_LIMITS.body) : '<i>No written review, rating only.</i>')] },
  ];
  if (v.translation) {
    sections.push({
      header: escapeGoogleChat(`Translation (${v.translation.languageName})`),
      widgets: [paragraph(fit(v.translation.text, GOOGLE_CHAT_LIMITS.translation))],
    });
  }
  sections.push({
    widgets: reviewFacts(v).map(([label, value]) => ({
      decoratedText: { topLabel: label, text: fit(value, GOOGLE_CHAT_LIMITS.factValue) || '—', wrapText: true as const },
    })),
  });
  if (v.link) sections.push({ widgets: [button(v.link, v.linkLabel)] });
  return message('arb-review', input.app, v.summary, { header, sections });
}

export function formatWelcome(input: WelcomeMessageInput): FormattedMessage {
  const w = welcomeView(input);
  const sections: GoogleChatSection[] = [{ widgets: [paragraph(fit(w.text, 2_000))] }];
  if (w.manageUrl) sections.push({ widgets: [button(w.manageUrl, 'Manage this space in ARB')] });
  return message('arb-welcome', input.app, w.summary, { header: { title: `👋 ${w.heading}`, subtitle: plain(`${w.appTitle} · ${w.storeName}`, 200) }, sections });
}

/** A spike alert: the facts, then each cited review with its link, the last ones left out until the message fits. */
export function formatAlert(input: AlertMessageInput): FormattedMessage {
  const a = alertView(input);
  const facts = [...a.what, a.since, ...(a.concentration ? [a.concentration] : [])].map((line) => fit(line, 400)).join('<br>');
  const cited: GoogleChatWidget[] = a.cited.map((r) =>
    paragraph(
      `<b>${escapeGoogleChat(r.stars)}${r.title ? ` ${fit(r.title, 150)}` : ''}</b><br>${fit(r.excerpt, 1_000)}<br><i>${fit(r.byline, 150)}</i>` +
        (r.link ? ` · ${link(r.link, 'Open')}` : ''),
    ),
  );
  const build = (n: number) =>
    message('arb-alert', input.app, a.summary, {
      header: { title: plain(a.title, GOOGLE_CHAT_LIMITS.headerTitle), subtitle: plain(`${a.appTitle} · ${a.storeName} · ARB spike alert`, 200) },
      sections: [
        { widgets: [paragraph(facts)] },
        ...(n > 0 ? [{ header: 'Reviews', widgets: cited.slice(0, n) }] : []),
        ...(a.inboxUrl ? [{ widgets: [button(a.inboxUrl, a.inboxLabel)] }] : []),
      ],
    });
  return withCited(cited.length, build, (m) => m.kind === 'json' && payloadBytes(m.body) <= GOOGLE_CHAT_LIMITS.payloadBytes);
}

/** A weekly summary: how it was made, the overview and what changed, then each theme (or quote) a paragraph. */
export function formatSummary(input: SummaryMessageInput): FormattedMessage {
  const s = summaryView(input);
  const items: GoogleChatWidget[] = s.items.map((item) =>
    paragraph(
      [
        item.heading ? `<b>${fit(item.heading, 300)}</b>` : null,
        item.text ? fit(item.text, 800) : null,
        ...item.quotes.map((q) => `${escapeGoogleChat(q.stars)} “${fit(q.text, 500)}” <i>${fit(q.why, 150)}</i>${q.link ? ` · ${link(q.link, 'Open')}` : ''}`),
      ]
        .filter(Boolean)
        .join('<br>'),
    ),
  );
  const build = (n: number) =>
    message('arb-summary', input.app, s.summary, {
      header: { title: plain(s.title, GOOGLE_CHAT_LIMITS.headerTitle), subtitle: plain(`${s.appTitle} · ${s.storeName} · ARB weekly summary`, 200) },
      sections: [
        { widgets: [paragraph(`<i>${fit(s.label, 500)}</i>${s.overview ? `<br><br>${fit(s.overview, 1_500)}` : ''}`)] },
        { header: 'What changed', widgets: [paragraph(summaryFacts(s).map((line) => fit(line, 500)).join('<br>'))] },
        ...(n > 0 ? [{ header: escapeGoogleChat(s.itemsHeading), widgets: items.slice(0, n) }] : []),
        ...(s.note ? [{ widgets: [paragraph(`<i>${fit(s.note, 400)}</i>`)] }] : []),
        ...(s.inboxUrl ? [{ widgets: [button(s.inboxUrl, s.inboxLabel)] }] : []),
      ],
    });
  return withCited(items.length, build, (m) => m.kind === 'json' && payloadBytes(m.body) <= GOOGLE_CHAT_LIMITS.payloadBytes);
}

/** Google's error: `{ error: { code, message, status, details: [{ reason }] } }`. */
function googleError(json: Record<string, unknown> | null): { status: string; message: string; reason: string } {
  const e = (json?.error ?? {}) as Record<string, unknown>;
  const details = Array.isArray(e.details) ? (e.details as Array<Record<string, unknown>>) : [];
  const reason = details.map((d) => d.reason).find((r): r is string => typeof r === 'string') ?? '';
  return {
    status: typeof e.status === 'string' ? e.status : '',
    message: typeof e.message === 'string' ? e.message.replace(/\s+/g, ' ').trim().slice(0, 160) : '',
    reason,
  };
}

const said = (status: number, e: { status: string; message: string }) => `HTTP ${status}${e.status ? `, ${e.status}` : ''}${e.message ? `: ${e.message}` : ''}`;
const goneBecause = (status: number, e: { status: string; message: string }, why: string): DeliveryOutcome => ({
  type: 'gone',
  status,
  error: `${PLATFORM_NAMES.googlechat} refused the webhook: ${why} (${said(status, e)}). Connect it again with a new webhook of the space to keep receiving reviews.`,
});

const RESOURCE_EXHAUSTED_WAIT_SECONDS = 2;

/**
 * Google Chat's answers: a bad `key` is a 400 INVALID_ARGUMENT with reason API_KEY_INVALID and a bad or deleted
 * webhook `token` a 403 PERMISSION_DENIED (both: the webhook is gone); a space that no longer exists (or that removed
 * the webhook) 404 NOT_FOUND; any other 400 is about this message. 429 RESOURCE_EXHAUSTED (the space's quota, 1 a
 * second) is the shared slow-down, with a wait of its own: Google sends no Retry-After.
 */
export const answers: AnswerRules = {
  // Google says nothing of when to try again; the space's quota is per second, so two seconds refill it.
  bodyWaitSeconds: (json) => (googleError(json).status === 'RESOURCE_EXHAUSTED' ? RESOURCE_EXHAUSTED_WAIT_SECONDS : undefined),
  refusal: (status, _body, json) => {
    const e = googleError(json);
    if (status === 400 && (e.reason === 'API_KEY_INVALID' || /api key not valid/i.test(e.message))) return goneBecause(status, e, 'its key is not valid');
    if (status === 400 || status === 413) {
      return { type: 'rejected', status, error: `${PLATFORM_NAMES.googlechat} did not accept this message (${said(status, e)}).` };
    }
    if (status === 401 || status === 403) return goneBecause(status, e, 'the webhook was deleted from its space, or its token is no longer valid');
    if (status === 404) return goneBecause(status, e, 'its space no longer exists, or the webhook was removed from it');
    return undefined;
  },
  sendUrl: (url) => {
    const u = new URL(url);
    u.searchParams.delete('threadKey'); // the deprecated query form: ARB threads by app in the body
    u.searchParams.set('messageReplyOption', 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
    return u.toString();
  },
};
