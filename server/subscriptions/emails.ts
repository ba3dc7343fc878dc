/**
 * The e-mails of "reviews by e-mail": recent reviews (with the offer of a daily digest), the digest, the summary, and
 * the confirmation an unsubscribed address gets instead. Reviews are laid out the way the e-mail destination formats
 * them (server/destinations/format/view.ts decides what a review says), every piece of review text is HTML-escaped,
 * subjects are one line, and every message carries a visible unsubscribe link plus List-Unsubscribe and
 * List-Unsubscribe-Post (RFC 8058) headers. Pure functions: links are passed in.
 */
import type { MailMessage } from '../mail/send';
import { emailLayout, formatSummary } from '../destinations/platforms/email';
import { escapeHtml, headerSafe, truncate } from '../destinations/format/text';
import { reviewFacts, reviewView } from '../destinations/format/view';
import type { ReviewMessageInput, SummaryMessageInput } from '../destinations/types';
import type { ReviewSummary } from './summary';

export type UnsubscribeLinks = { page: string; oneClick: string };
export type EmailApp = { title: string; storeName: string; storeUrl: string | null };

const BODY_LIMIT = 2000;
const STAR_COLORS = { low: '#d93025', mid: '#b06000', high: '#188038' };

const esc = (s: string) => escapeHtml(s);
const multiline = (s: string) => esc(s).replace(/\n/g, '<br>\n');
const dateText = (d: Date) => d.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
const starColor = (rating: number) => (rating <= 2 ? STAR_COLORS.low : rating === 3 ? STAR_COLORS.mid : STAR_COLORS.high);

function headers(links: UnsubscribeLinks): Record<string, string> {
  return { 'List-Unsubscribe': `<${links.oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

function layout(preheader: string, content: string, links: UnsubscribeLinks): string {
  return emailLayout(
    preheader,
    content,
    `You receive this e-mail because this address asked ARB for app reviews.
<a href="${esc(links.page)}" style="color:#6b7280;">Unsubscribe</a> — one click, no sign-in.`,
  );
}

function footerText(links: UnsubscribeLinks): string[] {
  return ['', '--', 'You receive this e-mail because this address asked ARB for app reviews.', `Unsubscribe (one click, no sign-in): ${links.page}`];
}

/** One review as HTML rows and as plain text, with the facts every ARB message lists. */
function reviewBlock(input: ReviewMessageInput): { html: string; text: string[] } {
  const v = reviewView(input);
  const body = truncate(v.body, BODY_LIMIT);
  const facts = reviewFacts(v).filter(([label]) => label !== 'Rating' && label !== 'App');
  const meta = [...facts.map(([, value]) => value), dateText(v.date)].join(' · ');
  const html = `<tr><td style="padding:16px 0;border-top:1px solid #e5e7eb;">
<div style="font-size:18px;color:${starColor(v.rating)};letter-spacing:2px;" aria-label="${v.rating} out of 5 stars">${v.stars}</div>
${v.title ? `<div style="font-size:16px;font-weight:600;padding-top:4px;">${esc(v.title)}</div>\n` : ''}<div style="font-size:15px;line-height:1.5;padding-top:6px;">${body ? multiline(body) : '<em>No written review, rating only.</em>'}</div>
<div style="font-size:13px;color:#6b7280;padding-top:8px;">${esc(meta)}</div>
${v.link ? `<div style="padding-top:6px;font-size:13px;"><a href="${esc(v.link)}" style="color:#1f6feb;">${esc(v.linkLabel)}</a></div>\n` : ''}</td></tr>`;
  const text = ['', `${v.stars}${v.title ? `  ${v.title}` : ''}`, body || 'No written review, rating only.', meta, ...(v.link ? [`${v.linkLabel}: ${v.link}`] : [])];
  return { html, text };
}

function heading(text: string): string {
  return `<tr><td style="font-size:20px;font-weight:600;padding-bottom:8px;">${esc(text)}</td></tr>`;
}

function paragraph(html: string): string {
  return `<tr><td style="font-size:15px;line-height:1.5;padding-bottom:8px;">${html}</td></tr>`;
}

function button(url: string, label: string): string {
  return `<tr><td style="padding:8px 0 16px;"><a href="${esc(url)}" style="display:inline-block;background:#1f6feb;color:#ffffff;text-decoration:none;padding:10px 16px;border-radius:6px;font-size:15px;font-weight:600;">${esc(label)}</a></td></tr>`;
}

const reviewsWord = (n: number) => `${n} ${n === 1 ? 'review' : 'reviews'}`;

/**
 * The weekly summary's offer for one app, in every review e-mail: null when it is on already. `asked`: the form's box
 * was ticked, so the e-mail asks for the confirming click with a button; otherwise it is one line with a link. Either
 * way only a click from this mailbox turns it on (a recurring e-mail never starts from a form alone).
 */
export type WeeklyOffer = { url: string; asked: boolean } | null;

function weeklyOfferParts(app: EmailApp, offer: WeeklyOffer | undefined): { html: string[]; text: string[] } {
  if (!offer) return { html: [], text: [] };
  if (offer.asked) {
    const line = `You asked for a weekly summary of ${app.title}: themes, what changed and representative reviews, every Monday. Confirm it with one click.`;
    return { html: [paragraph(esc(line)), button(offer.url, 'Send me the weekly summary')], text: ['', line, `Send me the weekly summary: ${offer.url}`] };
  }
  const line = `Get a weekly summary of ${app.title} every Monday: themes, what changed and representative reviews.`;
  return {
    html: [paragraph(`${esc(line)} <a href="${esc(offer.url)}" style="color:#1f6feb;">Turn on the weekly summary</a>`)],
    text: ['', line, `Turn on the weekly summary: ${offer.url}`],
  };
}

/** The weekly summary of an app for a subscriber: the destinations' e-mail layout, with the subscriber's own footer. */
export function weeklySummaryEmail(e: { to: string; summary: SummaryMessageInput; links: UnsubscribeLinks }): MailMessage {
  const why = `You receive this e-mail because this address turned on the weekly summary of ${e.summary.app.title}.`;
  const m = formatSummary(e.summary, {
    unsubscribeUrl: e.links.page,
    footer: { html: `${esc(why)}\n<a href="${esc(e.links.page)}" style="color:#6b7280;">Unsubscribe</a> — one click, no sign-in.`, text: ['', '--', why, `Unsubscribe (one click, no sign-in): ${e.links.page}`] },
  });
  if (m.kind !== 'email') throw new Error('formatSummary made no e-mail');
  return { to: e.to, subject: m.subject, text: m.text, html: m.html, headers: headers(e.links) };
}

export type RecentReviewsEmail = {
  to: string;
  app: EmailApp;
  /** Storefront name ("United States") for iOS, null for Google Play. */
  countryName: string | null;
  reviews: ReviewMessageInput[];
  /** Link that turns the daily digest on; null when it is on already. */
  digestUrl: string | null;
  weekly?: WeeklyOffer;
  links: UnsubscribeLinks;
};

export function recentReviewsEmail(e: RecentReviewsEmail): MailMessage {
  const where = e.countryName ? `${e.app.storeName}, ${e.countryName}` : e.app.storeName;
  const subject = headerSafe(`Recent reviews of ${e.app.title}`);
  const intro = e.reviews.length
    ? `The ${reviewsWord(e.reviews.length)} most recently written for ${e.app.title} on ${where}, newest first.`
    : `${e.app.title} has no written reviews on ${where} yet. New ones will be in your digest if you turn it on.`;
  const offer = e.digestUrl
    ? 'Want the new ones too? Turn on the daily digest: one e-mail a day at most, only on days with new reviews.'
    : 'Your daily digest is on: new reviews arrive in one e-mail a day at most.';
  const blocks = e.reviews.map(reviewBlock);
  const content = [
    heading(`Recent reviews of ${e.app.title}`),
    paragraph(esc(intro)),
    ...blocks.map((b) => b.html),
    `<tr><td style="padding-top:16px;border-top:1px solid #e5e7eb;"></td></tr>`,
    paragraph(esc(offer)),
    ...(e.digestUrl ? [button(e.digestUrl, 'Send me a daily digest')] : []),
    ...weeklyOfferParts(e.app, e.weekly).html,
  ].join('\n');
  const text = [
    `Recent reviews of ${e.app.title}`,
    '',
    intro,
    ...blocks.flatMap((b) => b.text),
    '',
    offer,
    ...(e.digestUrl ? [`Send me a daily digest: ${e.digestUrl}`] : []),
    ...weeklyOfferParts(e.app, e.weekly).text,
    ...footerText(e.links),
  ].join('\n');
  return { to: e.to, subject, text, html: layout(intro, content, e.links), headers: headers(e.links) };
}

export type DigestSection = { app: EmailApp; countryName: string | null; reviews: ReviewMessageInput[]; total: number; weekly?: WeeklyOffer };

export function digestEmail(e: { to: string; sections: DigestSection[]; since: Date; links: UnsubscribeLinks }): MailMessage {
  const total = e.sections.reduce((n, s) => n + s.total, 0);
  const titles = e.sections.map((s) => s.app.title);
  const subject = headerSafe(`${reviewsWord(total)} of ${titles.length === 1 ? titles[0] : `${titles.length} apps`} since ${dateText(e.since)}`);
  const html: string[] = [heading('Your daily review digest'), paragraph(esc(`New reviews since ${dateText(e.since)}.`))];
  const text: string[] = ['Your daily review digest', '', `New reviews since ${dateText(e.since)}.`];
  for (const s of e.sections) {
    const where = s.countryName ? `${s.app.storeName}, ${s.countryName}` : s.app.storeName;
    const more = s.total - s.reviews.length;
    html.push(`<tr><td style="font-size:17px;font-weight:600;padding-top:20px;">${esc(s.app.title)} · ${esc(where)} — ${esc(reviewsWord(s.total))}</td></tr>`);
    text.push('', `== ${s.app.title} · ${where} — ${reviewsWord(s.total)} ==`);
    for (const b of s.reviews.map(reviewBlock)) {
      html.push(b.html);
      text.push(...b.text);
    }
    if (more > 0) {
      const line = `…and ${reviewsWord(more)} more.${s.app.storeUrl ? ' Read them in the store.' : ''}`;
      html.push(paragraph(`${esc(line)}${s.app.storeUrl ? ` <a href="${esc(s.app.storeUrl)}" style="color:#1f6feb;">Open the store page</a>` : ''}`));
      text.push('', line, ...(s.app.storeUrl ? [s.app.storeUrl] : []));
    }
    const offer = weeklyOfferParts(s.app, s.weekly);
    html.push(...offer.html);
    text.push(...offer.text);
  }
  text.push(...footerText(e.links));
  return { to: e.to, subject, text: text.join('\n'), html: layout(subject, html.join('\n'), e.links), headers: headers(e.links) };
}

export function summaryEmail(e: {
  to: string;
  app: EmailApp;
  countryName: string | null;
  summary: ReviewSummary;
  negative: ReviewMessageInput[];
  weekly?: WeeklyOffer;
  links: UnsubscribeLinks;
}): MailMessage {
  const s = e.summary;
  const where = e.countryName ? `${e.app.storeName}, ${e.countryName}` : e.app.storeName;
  const subject = headerSafe(`Review summary of ${e.app.title}`);
  const span = s.from && s.to ? ` written between ${dateText(s.from)} and ${dateText(s.to)}` : '';
  const intro = s.total
    ? `Computed from the ${reviewsWord(s.total)} of ${e.app.title} on ${where}${span}.`
    : `${e.app.title} has no written reviews on ${where} yet, so there is nothing to summarise.`;
  const html: string[] = [heading(`Review summary of ${e.app.title}`), paragraph(esc(intro))];
  const text: string[] = [`Review summary of ${e.app.title}`, '', intro];
  if (s.total) {
    html.push(paragraph(`<strong>Average rating:</strong> ${s.average!.toFixed(2)} out of 5`));
    text.push('', `Average rating: ${s.average!.toFixed(2)} out of 5`, '', 'Reviews per rating:');
    const rows = ([5, 4, 3, 2, 1] as const).map((n) => {
      const count = s.counts[n];
      const pct = Math.round((count / s.total) * 100);
      text.push(`  ${'★'.repeat(n)}${'☆'.repeat(5 - n)}  ${count} (${pct}%)`);
      return `<tr><td style="color:${starColor(n)};padding:2px 12px 2px 0;letter-spacing:1px;">${'★'.repeat(n)}${'☆'.repeat(5 - n)}</td><td style="padding:2px 12px 2px 0;">${count}</td><td style="color:#6b7280;">${pct}%</td></tr>`;
    });
    html.push(`<tr><td style="padding-bottom:12px;"><table role="presentation" cellpadding="0" cellspacing="0" style="font-size:14px;">${rows.join('')}</table></td></tr>`);
    if (s.terms.length) {
      const list = s.terms.map((t) => `“${t.term}” (${reviewsWord(t.reviews)})`);
      html.push(paragraph(`<strong>Most mentioned:</strong> ${esc(list.join(', '))}`));
      text.push('', `Most mentioned: ${list.join(', ')}`);
    } else {
      html.push(paragraph('<strong>Most mentioned:</strong> no word or phrase appears in more than one review.'));
      text.push('', 'Most mentioned: no word or phrase appears in more than one review.');
    }
    const negHeading = e.negative.length ? 'Latest negative reviews (1–2 stars)' : 'No 1- or 2-star reviews among them.';
    html.push(`<tr><td style="font-size:17px;font-weight:600;padding-top:12px;">${esc(negHeading)}</td></tr>`);
    text.push('', negHeading);
    for (const b of e.negative.map(reviewBlock)) {
      html.push(b.html);
      text.push(...b.text);
    }
  }
  const offer = weeklyOfferParts(e.app, e.weekly);
  html.push(...offer.html);
  text.push(...offer.text);
  text.push(...footerText(e.links));
  return { to: e.to, subject, text: text.join('\n'), html: layout(intro, html.join('\n'), e.links), headers: headers(e.links) };
}

export function confirmationEmail(e: { to: string; app: EmailApp; what: 'recent_reviews' | 'summary'; confirmUrl: string; links: UnsubscribeLinks }): MailMessage {
  const thing = e.what === 'summary' ? `a review summary of ${e.app.title}` : `the recent reviews of ${e.app.title}`;
  const subject = headerSafe(`Confirm: send ${e.what === 'summary' ? 'a review summary' : 'recent reviews'} of ${e.app.title}?`);
  const lines = [
    `Someone asked ARB to e-mail ${thing} to this address. This address unsubscribed from ARB e-mails before, so we send nothing until you confirm.`,
    'If it was not you, ignore this e-mail: nothing more will be sent.',
  ];
  const content = [heading('Confirm your request'), ...lines.map((l) => paragraph(esc(l))), button(e.confirmUrl, 'Yes, send it')].join('\n');
  const text = ['Confirm your request', '', ...lines, '', `Yes, send it: ${e.confirmUrl}`, ...footerText(e.links)].join('\n');
  return { to: e.to, subject, text, html: layout(lines[0], content, e.links), headers: headers(e.links) };
}


/**
 * The one e-mail a new e-mail destination gets before its owner agrees: what was asked, who can stop it, and the
 * link. No review is in it — reviews only start after the click.
 */
export function destinationConfirmationEmail(e: { to: string; apps: EmailApp[]; confirmUrl: string; validHours: number; links: UnsubscribeLinks }): MailMessage {
  const names = e.apps.map((a) => a.title).join(', ');
  const subject = headerSafe(`Confirm: e-mail new reviews of ${names} to this address?`);
  const lines = [
    `Someone asked ARB to e-mail every new review of ${names} to this address. We send nothing until you confirm.`,
    `The link works for ${e.validHours} hours. If it was not you, ignore this e-mail: nothing more will be sent.`,
  ];
  const content = [heading('Confirm your address'), ...lines.map((l) => paragraph(esc(l))), button(e.confirmUrl, 'Yes, send me the reviews')].join('\n');
  const text = ['Confirm your address', '', ...lines, '', `Yes, send me the reviews: ${e.confirmUrl}`, ...footerText(e.links)].join('\n');
  return { to: e.to, subject, text, html: layout(lines[0], content, e.links), headers: headers(e.links) };
}
