/**
 * Microsoft Teams through a Workflows (Power Automate) webhook: one Adaptive Card 1.4 in the `message` envelope.
 * TextBlocks wrap and render a Markdown subset, so review text is Markdown-escaped; mentions need `<at>` plus
 * entities, so plain text cannot ping. The whole payload is kept under ~20 KB (the documented 28 KB minus headroom).
 */
import type { AlertMessageInput, FormattedMessage, ReviewMessageInput, SummaryMessageInput, WelcomeMessageInput } from '../types';
import { alertView, withCited } from '../format/alertView';
import { escapeMarkdown, fitRendered, markdownUrl, utf8Length } from '../format/text';
import { reviewFacts, reviewView, welcomeView } from '../format/view';
import { summaryFacts, summaryView } from '../format/summaryView';
import { rejectsOn, type AnswerRules } from '../answers';

export const TEAMS_LIMITS = { payloadBytes: 20_000, title: 500, factValue: 1_000 } as const;

type TextBlock = {
  type: 'TextBlock';
  text: string;
  wrap: true;
  size?: 'Small' | 'Default' | 'Medium' | 'Large';
  weight?: 'Lighter' | 'Default' | 'Bolder';
  isSubtle?: boolean;
  color?: 'Default' | 'Good' | 'Warning' | 'Attention' | 'Accent';
  spacing?: 'Small' | 'Medium';
};
type FactSet = { type: 'FactSet'; facts: Array<{ title: string; value: string }> };
type OpenUrl = { type: 'Action.OpenUrl'; title: string; url: string };
export type AdaptiveCard = {
  $schema: string;
  type: 'AdaptiveCard';
  version: '1.4';
  msteams: { width: 'Full' };
  body: Array<TextBlock | FactSet>;
  actions?: OpenUrl[];
};
export type TeamsPayload = {
  type: 'message';
  attachments: Array<{ contentType: 'application/vnd.microsoft.card.adaptive'; contentUrl: null; content: AdaptiveCard }>;
};

const textBlock = (text: string, extra: Partial<TextBlock> = {}): TextBlock => ({ type: 'TextBlock', text, wrap: true, ...extra });
const fit = (raw: string, max: number) => fitRendered(raw, max, escapeMarkdown);

function envelope(card: Omit<AdaptiveCard, '$schema' | 'type' | 'version' | 'msteams'>): TeamsPayload {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: { $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4', msteams: { width: 'Full' }, ...card },
      },
    ],
  };
}

export const payloadBytes = (payload: unknown) => utf8Length(JSON.stringify(payload));

export function formatReview(input: ReviewMessageInput): FormattedMessage {
  const v = reviewView(input);
  const ratingColor = v.rating <= 2 ? 'Attention' : v.rating === 3 ? 'Warning' : 'Good';
  const head: TextBlock[] = [
    textBlock(`${v.heading} · ${fit(v.appTitle, 200)} · ${v.storeName}`, { size: 'Small', isSubtle: true }),
    textBlock(`${v.stars}${v.title ? `  ${fit(v.title, TEAMS_LIMITS.title)}` : ''}`, { size: 'Medium', weight: 'Bolder', color: ratingColor }),
  ];
  if (v.kind === 'updated' && v.previousStars) head.push(textBlock(`Edited: was ${v.previousStars}, now ${v.stars}`, { size: 'Small', isSubtle: true }));
  const facts: FactSet = { type: 'FactSet', facts: reviewFacts(v).map(([title, value]) => ({ title, value: fit(value, TEAMS_LIMITS.factValue) })) };
  const actions: OpenUrl[] = v.link ? [{ type: 'Action.OpenUrl', title: v.linkLabel, url: v.link }] : [];

  const build = (body: string, translation: string | null): TeamsPayload =>
    envelope({
      body: [
        ...head,
        textBlock(body || '_No written review, rating only._', { spacing: 'Medium' }),
        ...(translation != null ? [textBlock(`**Translation (${escapeMarkdown(v.translation!.languageName)})**`, { size: 'Small', spacing: 'Medium' }), textBlock(translation)] : []),
        facts,
      ],
      actions,
    });

  // Everything but the body and translation is small and bounded: they get what is left of the byte budget.
  const fixed = payloadBytes(build('', v.translation ? '' : null));
  const room = TEAMS_LIMITS.payloadBytes - fixed;
  const translationRoom = v.translation ? Math.floor(room / 3) : 0;
  const jsonBytes = (s: string) => utf8Length(JSON.stringify(s)) - 2;
  const translation = v.translation ? fitRendered(v.translation.text, translationRoom, escapeMarkdown, jsonBytes) : null;
  const body = v.body ? fitRendered(v.body, room - (translation != null ? jsonBytes(translation) : 0), escapeMarkdown, jsonBytes) : '';
  return { kind: 'json', body: build(body, translation) };
}

export function formatWelcome(input: WelcomeMessageInput): FormattedMessage {
  const w = welcomeView(input);
  return {
    kind: 'json',
    body: envelope({
      body: [textBlock(`👋 ${w.heading}`, { size: 'Medium', weight: 'Bolder' }), textBlock(fit(w.text, 2_000))],
      actions: w.manageUrl ? [{ type: 'Action.OpenUrl', title: 'Manage in ARB', url: w.manageUrl }] : [],
    }),
  };
}

/** A spike alert: the title in red, the facts, each cited review as a short block with its link. */
export function formatAlert(input: AlertMessageInput): FormattedMessage {
  const a = alertView(input);
  const head: TextBlock[] = [
    textBlock(`${fit(a.appTitle, 200)} · ${a.storeName}`, { size: 'Small', isSubtle: true }),
    textBlock(fit(a.title, TEAMS_LIMITS.title), { size: 'Medium', weight: 'Bolder', color: 'Attention' }),
    textBlock([...a.what, a.since, ...(a.concentration ? [a.concentration] : [])].map((line) => fit(line, 500)).join('\n\n')),
  ];
  const cited = a.cited.flatMap((r) => [
    textBlock(`**${r.stars}${r.title ? ` ${fit(r.title, 300)}` : ''}**`, { spacing: 'Medium' }),
    textBlock(`${fit(r.excerpt, 1_000)}\n\n_${fit(r.byline, 300)}_${r.link ? ` [Open](${markdownUrl(r.link)})` : ''}`, { size: 'Small' }),
  ]);
  const actions: OpenUrl[] = a.inboxUrl ? [{ type: 'Action.OpenUrl', title: a.inboxLabel, url: a.inboxUrl }] : [];
  const payload = withCited(a.cited.length, (n) => envelope({ body: [...head, ...cited.slice(0, 2 * n)], actions }), (p) => payloadBytes(p) <= TEAMS_LIMITS.payloadBytes);
  return { kind: 'json', body: payload };
}

/** A weekly summary: title, how it was made, overview, what changed, then the themes (or quotes) while the card fits. */
export function formatSummary(input: SummaryMessageInput): FormattedMessage {
  const s = summaryView(input);
  const head: TextBlock[] = [
    textBlock(`${fit(s.appTitle, 200)} · ${s.storeName}`, { size: 'Small', isSubtle: true }),
    textBlock(fit(s.title, TEAMS_LIMITS.title), { size: 'Medium', weight: 'Bolder' }),
    textBlock(`_${fit(s.label, 500)}_`, { size: 'Small', isSubtle: true }),
    ...(s.overview ? [textBlock(fit(s.overview, 2_000), { spacing: 'Medium' })] : []),
    textBlock('**What changed**', { spacing: 'Medium' }),
    textBlock(summaryFacts(s).map((line) => fit(line, 500)).join('\n\n')),
    ...(s.items.length ? [textBlock(`**${s.itemsHeading}**`, { spacing: 'Medium' })] : []),
  ];
  const items = s.items.map((item) =>
    textBlock(
      [
        item.heading ? `**${fit(item.heading, 300)}**` : null,
        item.text ? fit(item.text, 1_000) : null,
        ...item.quotes.map((q) => `${q.stars} “${fit(q.text, 600)}” _${fit(q.why, 150)}_${q.link ? ` [Open](${markdownUrl(q.link)})` : ''}`),
      ]
        .filter(Boolean)
        .join('\n\n'),
      { spacing: 'Medium' },
    ),
  );
  const tail = s.note ? [textBlock(`_${fit(s.note, 600)}_`, { size: 'Small', isSubtle: true })] : [];
  const actions: OpenUrl[] = s.inboxUrl ? [{ type: 'Action.OpenUrl', title: s.inboxLabel, url: s.inboxUrl }] : [];
  const payload = withCited(items.length, (n) => envelope({ body: [...head, ...items.slice(0, n), ...tail], actions }), (p) => payloadBytes(p) <= TEAMS_LIMITS.payloadBytes);
  return { kind: 'json', body: payload };
}

/** Teams: a 400, 413 or 415 is about this message. */
export const answers: AnswerRules = { refusal: rejectsOn('msteams', [400, 413, 415]) };
