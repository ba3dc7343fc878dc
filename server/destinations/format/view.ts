/**
 * What every review message says, whatever the platform: the review turned into cleaned, labelled, still unescaped
 * strings. Each platform formatter then escapes and fits these into its own payload. Keeping the content in one place
 * is what makes Slack, Teams, Mattermost, Discord, Webex and e-mail say the same thing.
 */
import type { ReviewMessageInput, WelcomeMessageInput } from '../types';
import { cleanText, countryLabel, languageName, safeLink, singleLine, stars, storeName } from './text';

export type ReviewView = {
  kind: 'new' | 'updated';
  /** 'New review', 'Recent review' (the welcome's) or 'Updated review'. */
  heading: string;
  rating: number;
  stars: string;
  /** For an updated review whose rating changed: the rating before. */
  previousRating: number | null;
  previousStars: string | null;
  /** One line, or null when the store has no title (Google Play) or the reviewer left it empty. */
  title: string | null;
  /** Multi-line body, '' when the review has no text. */
  body: string;
  author: string;
  appTitle: string;
  storeName: string;
  /** '🇺🇸 United States', or null when the store does not say. */
  country: string | null;
  /** 'English', when known. */
  language: string | null;
  version: string | null;
  /** The review or the app's store page; always http(s). */
  link: string | null;
  linkLabel: string;
  /** 'Positive', 'Neutral' or 'Negative'. */
  sentiment: string | null;
  /** The organisation's tag names, each one cleaned line (empty: no Tags line). */
  tags: string[];
  translation: { text: string; languageName: string } | null;
  date: Date;
  /** Side colour for platforms that have one: red 1–2★, amber 3★, green 4–5★. */
  color: number;
  /** One line for notifications and previews: "★★☆☆☆ New review of Lumen Notes: Sync broke". */
  summary: string;
};

export function ratingColor(rating: number): number {
  if (rating <= 2) return 0xd93025;
  if (rating === 3) return 0xf9ab00;
  return 0x188038;
}

export function reviewView(input: ReviewMessageInput): ReviewView {
  const { review, app } = input;
  const kind = input.kind === 'updated' ? 'updated' : 'new';
  const heading = kind === 'updated' ? 'Updated review' : input.recent ? 'Recent review' : 'New review';
  const title = singleLine(review.title) || null;
  const body = cleanText(review.body);
  const previous = kind === 'updated' && input.previous && input.previous.rating !== review.rating ? input.previous.rating : null;
  const appTitle = singleLine(app.title) || app.appId;
  const store = storeName(review.store);
  const excerpt = title ?? singleLine(body).slice(0, 120);
  const translationText = cleanText(input.translation?.text);
  return {
    kind,
    heading,
    rating: review.rating,
    stars: stars(review.rating),
    previousRating: previous,
    previousStars: previous != null ? stars(previous) : null,
    title,
    body,
    author: singleLine(review.authorName) || 'Anonymous',
    appTitle,
    storeName: store,
    country: countryLabel(review.country),
    language: languageName(review.language),
    version: singleLine(review.appVersion) || null,
    link: safeLink(review.permalink) ?? safeLink(app.storeUrl),
    linkLabel: `View on ${store === 'App Store' ? 'the App Store' : 'Google Play'}`,
    sentiment: input.sentiment ? input.sentiment.label[0].toUpperCase() + input.sentiment.label.slice(1) : null,
    tags: (input.tags ?? []).map((t) => singleLine(t.name)).filter(Boolean),
    translation: translationText
      ? { text: translationText, languageName: languageName(input.translation!.language) ?? input.translation!.language }
      : null,
    date: review.updatedAt,
    color: ratingColor(review.rating),
    summary: `${stars(review.rating)} ${heading} of ${appTitle}${excerpt ? `: ${excerpt}` : ''}`,
  };
}

/** "Rating" value: '★★★★☆' or, for an edit that changed it, '★★☆☆☆ → ★★★★☆'. */
export function ratingText(v: ReviewView): string {
  return v.previousStars ? `${v.previousStars} → ${v.stars} (was ${v.previousRating}, now ${v.rating})` : `${v.stars} (${v.rating}/5)`;
}

/** The facts every platform lists, in order, as [label, value] (unescaped). */
export function reviewFacts(v: ReviewView): Array<[string, string]> {
  const facts: Array<[string, string]> = [
    ['Rating', ratingText(v)],
    ['Author', v.author],
    ['App', `${v.appTitle} (${v.storeName})`],
  ];
  if (v.country) facts.push(['Country', v.country]);
  if (v.language) facts.push(['Language', v.language]);
  if (v.version) facts.push(['Version', v.version]);
  if (v.sentiment) facts.push(['Sentiment', v.sentiment]);
  if (v.tags.length) facts.push(['Tags', v.tags.join(', ')]);
  return facts;
}

export type WelcomeView = { heading: string; text: string; appTitle: string; storeName: string; manageUrl: string | null; summary: string };

/** `delivered` says where reviews go: 'posted here' in a chat channel, 'sent to this address' by e-mail. */
export function welcomeView(input: WelcomeMessageInput, delivered = 'posted here'): WelcomeView {
  const appTitle = singleLine(input.app.title) || input.app.appId;
  const store = storeName(input.app.store);
  const follow =
    input.recentCount > 0
      ? `The ${input.recentCount === 1 ? 'most recent review follows' : `${input.recentCount} most recent reviews follow`}.`
      : 'New reviews will appear here as soon as they are written.';
  return {
    heading: 'ARB is connected',
    appTitle,
    storeName: store,
    text: `New reviews of ${appTitle} on ${store} will be ${delivered}. ${follow}`,
    manageUrl: safeLink(input.manageUrl),
    summary: `New reviews of ${appTitle} will be ${delivered}`,
  };
}
