/**
 * E-mail: subject (one line, CR/LF stripped — header injection), an HTML part in which every piece of review text is
 * HTML-escaped, a plain-text part, and a working one-click unsubscribe: a link in the body plus `List-Unsubscribe` and
 * `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058) headers.
 */
import type { AlertMessageInput, EmailContext, FormattedMessage, ReviewMessageInput, SummaryMessageInput, WelcomeMessageInput } from '../types';
import { alertView } from '../format/alertView';
import { summaryFacts, summaryView } from '../format/summaryView';
import { escapeHtml, headerSafe, safeLink, truncate } from '../format/text';
import { reviewFacts, reviewView, welcomeView } from '../format/view';
import { rejectsOn, type AnswerRules } from '../answers';

export const EMAIL_LIMITS = { subject: 200, body: 10_000, translation: 5_000 } as const;

function unsubscribeLink(ctx: EmailContext): string {
  const url = safeLink(ctx?.unsubscribeUrl);
  if (!url) throw new Error('An e-mail needs an http(s) unsubscribe URL');
  return url;
}

function unsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** Escaped, with the reviewer's line breaks kept. */
const html = (s: string) => escapeHtml(s).replace(/\n/g, '<br>\n');

/**
 * The HTML frame every ARB e-mail shares (destination e-mails and the "reviews by e-mail" ones): a hidden preheader,
 * one white card, and a footer that says why the mail came and links to unsubscribe. `footerHtml` must be escaped.
 */
export function emailLayout(preheader: string, content: string, footerHtml: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(preheader)}</title>
</head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1f2328;">
<div style="display:none;max-height:0;overflow:hidden;">${escapeHtml(preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7;padding:24px 0;">
<tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:8px;padding:24px;">
${content}
<tr><td style="padding-top:24px;border-top:1px solid #e5e7eb;font-size:12px;color:#6b7280;">
${footerHtml}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

function layout(preheader: string, content: string, unsubscribeUrl: string): string {
  return emailLayout(
    preheader,
    content,
    `You receive these e-mails because this address was added to ARB review notifications.
<a href="${escapeHtml(unsubscribeUrl)}" style="color:#6b7280;">Unsubscribe</a>`,
  );
}

export function formatReview(input: ReviewMessageInput, ctx: EmailContext): FormattedMessage {
  const unsubscribe = unsubscribeLink(ctx);
  const v = reviewView(input);
  const body = truncate(v.body, EMAIL_LIMITS.body);
  const translation = v.translation ? truncate(v.translation.text, EMAIL_LIMITS.translation) : null;
  const subject = truncate(headerSafe(`${v.stars} ${v.heading} of ${v.appTitle}${v.title ? `: ${v.title}` : ''}`), EMAIL_LIMITS.subject);
  const facts = reviewFacts(v);
  const starColor = v.rating <= 2 ? '#d93025' : v.rating === 3 ? '#b06000' : '#188038';

  const text = [
    `${v.heading} of ${v.appTitle} (${v.storeName})`,
    '',
    `${v.stars}${v.title ? `  ${v.title}` : ''}`,
    v.kind === 'updated' && v.previousStars ? `Edited: was ${v.previousStars}, now ${v.stars}` : null,
    '',
    body || 'No written review, rating only.',
    ...(translation ? ['', `Translation (${v.translation!.languageName}):`, translation] : []),
    '',
    ...facts.map(([label, value]) => `${label}: ${value}`),
    ...(v.link ? ['', `${v.linkLabel}: ${v.link}`] : []),
    '',
    '--',
    `Unsubscribe: ${unsubscribe}`,
  ]
    .filter((line) => line != null)
    .join('\n');

  const content = `<tr><td style="font-size:13px;color:#6b7280;padding-bottom:8px;">${escapeHtml(v.heading)} of <strong>${escapeHtml(v.appTitle)}</strong> · ${escapeHtml(v.storeName)}</td></tr>
<tr><td style="font-size:22px;color:${starColor};letter-spacing:2px;" aria-label="${v.rating} out of 5 stars">${v.stars}</td></tr>
${v.kind === 'updated' && v.previousStars ? `<tr><td style="font-size:13px;color:#6b7280;">Edited: was ${v.previousStars}, now ${v.stars}</td></tr>\n` : ''}${v.title ? `<tr><td style="font-size:18px;font-weight:600;padding-top:8px;">${escapeHtml(v.title)}</td></tr>\n` : ''}<tr><td style="font-size:15px;line-height:1.5;padding-top:8px;">${body ? html(body) : '<em>No written review, rating only.</em>'}</td></tr>
${translation ? `<tr><td style="font-size:14px;line-height:1.5;padding-top:12px;color:#374151;"><strong>Translation (${escapeHtml(v.translation!.languageName)})</strong><br>\n${html(translation)}</td></tr>\n` : ''}<tr><td style="padding-top:16px;">
<table role="presentation" cellpadding="0" cellspacing="0" style="font-size:13px;">
${facts.map(([label, value]) => `<tr><td style="color:#6b7280;padding:2px 12px 2px 0;">${escapeHtml(label)}</td><td>${escapeHtml(value)}</td></tr>`).join('\n')}
</table>
</td></tr>
${v.link ? `<tr><td style="padding-top:16px;"><a href="${escapeHtml(v.link)}" style="display:inline-block;background:#1f6feb;color:#ffffff;text-decoration:none;padding:8px 14px;border-radius:6px;font-size:14px;">${escapeHtml(v.linkLabel)}</a></td></tr>\n` : ''}`;

  return { kind: 'email', subject, text, html: layout(v.summary, content, unsubscribe), headers: unsubscribeHeaders(unsubscribe) };
}

export function formatWelcome(input: WelcomeMessageInput, ctx: EmailContext): FormattedMessage {
  const unsubscribe = unsubscribeLink(ctx);
  const w = welcomeView(input, 'sent to this address');
  const subject = truncate(headerSafe(`You will get new reviews of ${w.appTitle} by e-mail`), EMAIL_LIMITS.subject);
  const text = [
    w.heading,
    '',
    w.text,
    ...(w.manageUrl ? ['', `Manage your notifications: ${w.manageUrl}`] : []),
    '',
    '--',
    `Unsubscribe: ${unsubscribe}`,
  ].join('\n');
  const content = `<tr><td style="font-size:20px;font-weight:600;padding-bottom:8px;">${escapeHtml(w.heading)}</td></tr>
<tr><td style="font-size:15px;line-height:1.5;">${escapeHtml(w.text)}</td></tr>
${w.manageUrl ? `<tr><td style="padding-top:16px;"><a href="${escapeHtml(w.manageUrl)}" style="color:#1f6feb;">Manage your notifications</a></td></tr>\n` : ''}`;
  return { kind: 'email', subject, text, html: layout(w.summary, content, unsubscribe), headers: unsubscribeHeaders(unsubscribe) };
}

/** A spike alert by e-mail: the facts, then each cited review with its link; every piece of text HTML-escaped. */
export function formatAlert(input: AlertMessageInput, ctx: EmailContext): FormattedMessage {
  const unsubscribe = unsubscribeLink(ctx);
  const a = alertView(input);
  const subject = truncate(headerSafe(a.title), EMAIL_LIMITS.subject);
  const facts = [...a.what, a.since, ...(a.concentration ? [a.concentration] : [])];
  const text = [
    a.title,
    '',
    ...facts,
    ...a.cited.flatMap((r) => ['', `${r.stars}${r.title ? `  ${r.title}` : ''}`, r.excerpt, `— ${r.byline}`, ...(r.link ? [r.link] : [])]),
    ...(a.inboxUrl ? ['', `${a.inboxLabel}: ${a.inboxUrl}`] : []),
    '',
    '--',
    `Unsubscribe: ${unsubscribe}`,
  ].join('\n');
  const cited = a.cited
    .map(
      (r) => `<tr><td style="padding-top:16px;font-size:14px;line-height:1.5;"><span style="color:#d93025;letter-spacing:1px;">${r.stars}</span>${r.title ? ` <strong>${escapeHtml(r.title)}</strong>` : ''}<br>
${escapeHtml(r.excerpt)}<br>
<span style="color:#6b7280;font-size:13px;">— ${escapeHtml(r.byline)}${r.link ? ` · <a href="${escapeHtml(r.link)}" style="color:#1f6feb;">Open</a>` : ''}</span></td></tr>`,
    )
    .join('\n');
  const content = `<tr><td style="font-size:13px;color:#6b7280;padding-bottom:8px;"><strong>${escapeHtml(a.appTitle)}</strong> · ${escapeHtml(a.storeName)}</td></tr>
<tr><td style="font-size:20px;font-weight:600;color:#d93025;">${escapeHtml(a.title)}</td></tr>
<tr><td style="font-size:15px;line-height:1.6;padding-top:8px;">${facts.map(escapeHtml).join('<br>\n')}</td></tr>
${cited}
${a.inboxUrl ? `<tr><td style="padding-top:16px;"><a href="${escapeHtml(a.inboxUrl)}" style="display:inline-block;background:#1f6feb;color:#ffffff;text-decoration:none;padding:8px 14px;border-radius:6px;font-size:14px;">${escapeHtml(a.inboxLabel)}</a></td></tr>\n` : ''}`;
  return { kind: 'email', subject, text, html: layout(a.summary, content, unsubscribe), headers: unsubscribeHeaders(unsubscribe) };
}

/**
 * A weekly summary by e-mail: how it was made, the overview, what changed, the themes (or representative reviews) with
 * a link to each quoted review; every piece of text HTML-escaped. `ctx.footer` replaces the destination footer for
 * the reviews-by-e-mail subscribers (it must say why they get it).
 */
export function formatSummary(input: SummaryMessageInput, ctx: EmailContext & { footer?: { html: string; text: string[] } }): FormattedMessage {
  const unsubscribe = unsubscribeLink(ctx);
  const s = summaryView(input);
  const subject = truncate(headerSafe(s.title.replace(/^📊 /, '')), EMAIL_LIMITS.subject);
  const facts = summaryFacts(s);
  const text = [
    s.title,
    s.label,
    ...(s.overview ? ['', s.overview] : []),
    '',
    'What changed:',
    ...facts.map((l) => `- ${l}`),
    ...(s.items.length ? ['', `${s.itemsHeading}:`] : []),
    ...s.items.flatMap((item) => [
      '',
      ...(item.heading ? [item.heading] : []),
      ...(item.text ? [item.text] : []),
      ...item.quotes.flatMap((q) => [`${q.stars} “${q.text}” (${q.why})`, ...(q.link ? [q.link] : [])]),
    ]),
    ...(s.note ? ['', s.note] : []),
    ...(s.inboxUrl ? ['', `${s.inboxLabel}: ${s.inboxUrl}`] : []),
    ...(ctx.footer ? ctx.footer.text : ['', '--', `Unsubscribe: ${unsubscribe}`]),
  ].join('\n');
  const quoteHtml = (q: (typeof s.items)[number]['quotes'][number]) =>
    `<div style="padding-top:6px;"><span style="color:#b06000;letter-spacing:1px;">${q.stars}</span> “${escapeHtml(q.text)}” <span style="color:#6b7280;font-size:13px;">${escapeHtml(q.why)}${q.link ? ` · <a href="${escapeHtml(q.link)}" style="color:#1f6feb;">Open</a>` : ''}</span></div>`;
  const items = s.items
    .map(
      (item) => `<tr><td style="padding-top:14px;font-size:14px;line-height:1.5;">${item.heading ? `<strong>${escapeHtml(item.heading)}</strong><br>\n` : ''}${item.text ? `${html(item.text)}\n` : ''}${item.quotes.map(quoteHtml).join('\n')}</td></tr>`,
    )
    .join('\n');
  const content = `<tr><td style="font-size:13px;color:#6b7280;padding-bottom:8px;"><strong>${escapeHtml(s.appTitle)}</strong> · ${escapeHtml(s.storeName)}</td></tr>
<tr><td style="font-size:20px;font-weight:600;">${escapeHtml(s.title)}</td></tr>
<tr><td style="font-size:13px;color:#6b7280;font-style:italic;padding-top:4px;">${escapeHtml(s.label)}</td></tr>
${s.overview ? `<tr><td style="font-size:15px;line-height:1.5;padding-top:12px;">${html(s.overview)}</td></tr>\n` : ''}<tr><td style="font-size:16px;font-weight:600;padding-top:16px;">What changed</td></tr>
<tr><td style="font-size:14px;line-height:1.6;">${facts.map(escapeHtml).join('<br>\n')}</td></tr>
${s.items.length ? `<tr><td style="font-size:16px;font-weight:600;padding-top:16px;">${escapeHtml(s.itemsHeading)}</td></tr>\n` : ''}${items}
${s.note ? `<tr><td style="font-size:13px;color:#6b7280;padding-top:12px;">${escapeHtml(s.note)}</td></tr>\n` : ''}${s.inboxUrl ? `<tr><td style="padding-top:16px;"><a href="${escapeHtml(s.inboxUrl)}" style="display:inline-block;background:#1f6feb;color:#ffffff;text-decoration:none;padding:8px 14px;border-radius:6px;font-size:14px;">${escapeHtml(s.inboxLabel)}</a></td></tr>\n` : ''}`;
  const page = ctx.footer ? emailLayout(s.summary, content, ctx.footer.html) : layout(s.summary, content, unsubscribe);
  return { kind: 'email', subject, text, html: page, headers: unsubscribeHeaders(unsubscribe) };
}

/** A relay's HTTP-like refusal (a 400, 413 or 415) is about this message. */
export const answers: AnswerRules = { refusal: rejectsOn('email', [400, 413, 415]) };
