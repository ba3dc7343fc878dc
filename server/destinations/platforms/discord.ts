/**
 * Discord webhooks: one embed, `allowed_mentions: { parse: [] }` on every message (Discord's default lets user and
 * role mentions ping). Review text is backslash-escaped Markdown with '@' broken anyway, so even a client that ignored
 * allowed_mentions would render `@everyone` inertly. Every Discord limit is respected, because one character over any
 * of them is a 400: title 256, description 4096, ≤25 fields (name 256, value 1024), footer 2048, author 256, and all
 * of them together ≤ 6000.
 */
import type { AlertMessageInput, FormattedMessage, ReviewMessageInput, SummaryMessageInput, WelcomeMessageInput } from '../types';
import { alertView, withCited } from '../format/alertView';
import { breakMentions, breakPlain, escapeMarkdown, fitRendered, markdownUrl } from '../format/text';
import { reviewFacts, reviewView, welcomeView } from '../format/view';
import { summaryFacts, summaryView } from '../format/summaryView';
import { clampAskedWaitMs, rejectsOn, type AnswerRules } from '../answers';

export const DISCORD_LIMITS = {
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  author: 256,
  total: 6000,
} as const;

export type DiscordEmbed = {
  title?: string;
  url?: string;
  description?: string;
  color?: number;
  timestamp?: string;
  author?: { name: string };
  footer?: { text: string };
  fields?: Array<{ name: string; value: string; inline?: boolean }>;
};
export type DiscordPayload = { content?: string; allowed_mentions: { parse: [] }; embeds: DiscordEmbed[] };

export function escapeDiscord(s: string): string {
  return breakMentions(escapeMarkdown(s));
}
const fit = (raw: string, max: number) => fitRendered(raw, max, escapeDiscord);
/** Author names and footers are not Markdown. */
const plain = (raw: string, max: number) => fitRendered(raw, max, breakPlain);

/** The characters Discord counts toward the 6000 total of a message's embeds. */
export function discordEmbedLength(embeds: DiscordEmbed[]): number {
  let n = 0;
  for (const e of embeds) {
    n += (e.title?.length ?? 0) + (e.description?.length ?? 0) + (e.footer?.text.length ?? 0) + (e.author?.name.length ?? 0);
    for (const f of e.fields ?? []) n += f.name.length + f.value.length;
  }
  return n;
}

export function formatReview(input: ReviewMessageInput): FormattedMessage {
  const v = reviewView(input);
  const prefix = `${v.kind === 'updated' ? '✏️ ' : ''}${v.stars} `;
  const fields: NonNullable<DiscordEmbed['fields']> = reviewFacts(v)
    .filter(([label]) => label !== 'Author')
    .map(([name, value]) => ({ name, value: fit(value, DISCORD_LIMITS.fieldValue) || '—', inline: true }));
  const embed: DiscordEmbed = {
    title: prefix + (v.title ? fit(v.title, DISCORD_LIMITS.title - prefix.length) : v.heading),
    ...(v.link ? { url: v.link } : {}),
    description: '',
    color: v.color,
    timestamp: v.date.toISOString(),
    author: { name: plain(v.author, DISCORD_LIMITS.author) },
    footer: { text: plain(`${v.appTitle} · ${v.storeName} · ${v.heading}`, DISCORD_LIMITS.footer) },
    fields,
  };
  if (v.translation) {
    const name = plain(`Translation (${v.translation.languageName})`, DISCORD_LIMITS.fieldName);
    fields.push({ name, value: fit(v.translation.text, DISCORD_LIMITS.fieldValue) || '—', inline: false });
  }
  // The description (the review) gets whatever the other parts leave of the 6000 total.
  const room = Math.min(DISCORD_LIMITS.description, DISCORD_LIMITS.total - discordEmbedLength([embed]));
  embed.description = v.body ? fit(v.body, room) : '*No written review, rating only.*';
  const payload: DiscordPayload = { allowed_mentions: { parse: [] }, embeds: [embed] };
  return { kind: 'json', body: payload };
}

export function formatWelcome(input: WelcomeMessageInput): FormattedMessage {
  const w = welcomeView(input);
  const embed: DiscordEmbed = {
    title: `👋 ${w.heading}`,
    description: fit(w.text, 2_000) + (w.manageUrl ? `\n[Manage this channel in ARB](${markdownUrl(w.manageUrl)})` : ''),
    color: 0x1f6feb,
  };
  const payload: DiscordPayload = { allowed_mentions: { parse: [] }, embeds: [embed] };
  return { kind: 'json', body: payload };
}

/** A spike alert: one red embed; the cited reviews are fields (each with its link), the facts the description. */
export function formatAlert(input: AlertMessageInput): FormattedMessage {
  const a = alertView(input);
  const fields: NonNullable<DiscordEmbed['fields']> = a.cited.map((r) => {
    const link = r.link ? `\n[Open](${markdownUrl(r.link)})` : '';
    return {
      name: plain(`${r.stars} ${r.title ?? r.byline}`, DISCORD_LIMITS.fieldName),
      value: (fit(`${r.excerpt}\n— ${r.byline}`, DISCORD_LIMITS.fieldValue - link.length) || '—') + link,
      inline: false,
    };
  });
  const facts = [...a.what, a.since, ...(a.concentration ? [a.concentration] : [])].map((line) => fit(line, 500)).join('\n');
  const embedWith = (n: number): DiscordEmbed => ({
    title: plain(a.title, DISCORD_LIMITS.title),
    ...(a.inboxUrl ? { url: a.inboxUrl } : {}),
    description: facts,
    color: a.color,
    footer: { text: plain(`${a.appTitle} · ${a.storeName} · ARB spike alert`, DISCORD_LIMITS.footer) },
    fields: fields.slice(0, n),
  });
  const embed = withCited(fields.length, embedWith, (e) => discordEmbedLength([e]) <= DISCORD_LIMITS.total);
  const payload: DiscordPayload = { allowed_mentions: { parse: [] }, embeds: [embed] };
  return { kind: 'json', body: payload };
}

/**
 * A weekly summary: one embed; how it was made, the overview and what changed in the description (bounded under its
 * 4096), each theme (or quote) a field (≤ 1024, links kept whole), the last ones left out until the 6000 total fits.
 */
export function formatSummary(input: SummaryMessageInput): FormattedMessage {
  const s = summaryView(input);
  const description = [`*${fit(s.label, 400)}*`, s.overview ? fit(s.overview, 1_200) : null, `**What changed**\n${fit(summaryFacts(s).join('\n'), 2_000)}`]
    .filter(Boolean)
    .join('\n\n');
  const fields: NonNullable<DiscordEmbed['fields']> = s.items.map((item) => {
    const quotes = item.quotes.map((q) => {
      const link = q.link ? ` [Open](${markdownUrl(q.link)})` : '';
      return `${q.stars} “${fit(q.text, 300)}” *${fit(q.why, 100)}*${link}`;
    });
    const value = [item.text ? fit(item.text, 1_024 - quotes.join('\n').length - 2) : null, ...quotes].filter(Boolean).join('\n');
    return {
      name: plain(item.heading ?? item.quotes[0]?.stars ?? s.itemsHeading, DISCORD_LIMITS.fieldName),
      value: value.length <= DISCORD_LIMITS.fieldValue ? value || '—' : fit(item.text ?? item.quotes.map((q) => q.text).join(' '), DISCORD_LIMITS.fieldValue) || '—',
      inline: false,
    };
  });
  const embedWith = (n: number): DiscordEmbed => ({
    title: plain(s.title, DISCORD_LIMITS.title),
    ...(s.inboxUrl ? { url: s.inboxUrl } : {}),
    description,
    color: s.color,
    footer: { text: plain(`${s.appTitle} · ${s.storeName} · ARB weekly summary${s.note ? ` · ${s.note}` : ''}`, 1_000) },
    fields: fields.slice(0, Math.min(n, DISCORD_LIMITS.fields)),
  });
  const embed = withCited(fields.length, embedWith, (e) => discordEmbedLength([e]) <= DISCORD_LIMITS.total);
  const payload: DiscordPayload = { allowed_mentions: { parse: [] }, embeds: [embed] };
  return { kind: 'json', body: payload };
}

/**
 * Discord's answers: its bucket's X-RateLimit-Remaining / X-RateLimit-Reset-After ask for a pause after a success;
 * its JSON retry_after (float seconds) is more precise than its header; 10015 Unknown Webhook (404) and 50027 Invalid
 * Webhook Token (401) are the shared "gone", 50035 / 40005 (400, 413) are about the message. Without `wait=true`
 * Discord answers 204 before validating the message.
 */
export const answers: AnswerRules = {
  success: (res) => {
    if (res.headers['x-ratelimit-remaining'] !== '0') return undefined;
    const reset = Number(res.headers['x-ratelimit-reset-after']);
    return Number.isFinite(reset) && reset > 0 ? { type: 'delivered', status: res.status, pauseMs: clampAskedWaitMs(reset, 0, 0) } : undefined;
  },
  bodyWaitSeconds: (json) => (typeof json?.retry_after === 'number' ? json.retry_after : undefined),
  refusal: rejectsOn('discord', [400, 413]),
  sendUrl: (url) => {
    const u = new URL(url);
    u.searchParams.set('wait', 'true');
    return u.toString();
  },
};
