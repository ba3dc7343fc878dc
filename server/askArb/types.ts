/**
 * The shapes Ask ARB's parts agree on: which apps a question may read (the scope), the filters and intent taken from a
 * question, and what a tool call returns. The browser-facing shapes live in shared/askArb.ts.
 */
import type { AskReview, AskStore } from '@/shared/askArb';

export type { AskReview, AskStore, AskCitation } from '@/shared/askArb';

/** The only apps any tool may read: a visitor's picked app, or a signed-in user's organisation apps. */
export type AskScope = {
  orgId: string | null;
  apps: Array<{ appStore: AskStore; appId: string; title: string }>;
};

export type AskAppRef = { appStore: AskStore; appId: string };

export type AskSentiment = 'positive' | 'neutral' | 'negative' | 'mixed';

/** What a question narrows the reviews to. Dates are ISO (YYYY-MM-DD, `to` inclusive); `country` is ISO-2 upper case. */
export type AskFilters = {
  apps?: AskAppRef[];
  from?: string;
  to?: string;
  version?: string;
  country?: string;
  ratings?: number[];
  language?: string;
  sentiment?: AskSentiment;
};

/** `version_change`: the newest version against the one before ("since the last version"); `summary`: "summarise …". */
export type AskIntent = 'count' | 'average' | 'distribution' | 'trend' | 'reviews_about' | 'top_complaints' | 'version_change' | 'summary' | 'other';

/** How a figure is split, when the question asks for it ("by version", "per week"); optional, additive to the agreed shape. */
export type AskBreakdown = 'rating' | 'version' | 'country' | 'day' | 'week';

export type ParsedQuestion = { filters: AskFilters; intent: AskIntent; topic?: string; breakdown?: AskBreakdown };

export type ParseQuestionOptions = { scope: AskScope; now: Date; previous?: AskFilters };

/** What a tool call returns: JSON for the model, and the reviews the answer may cite. */
export type AskToolResult = { result: unknown; reviews: AskReview[] };

export type ParseQuestion = (text: string, options: ParseQuestionOptions) => ParsedQuestion;
export type RunAskTool = (name: string, argsJson: string, scope: AskScope) => Promise<AskToolResult>;
