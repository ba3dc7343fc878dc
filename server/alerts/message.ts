/**
 * A stored episode (its details, scope and start) → the formatters' AlertMessageInput. Cited reviews link to the
 * review in ARB's inbox, where it can be read in full and replied to; the inbox link lists the app's low reviews.
 */
import type { AlertMessageInput, AppInfo } from '../destinations/types';
import { filtersToQuery } from '@/shared/reviewFilters';
import { termSearch } from '../insights/terms';
import type { AlertDetails } from './details';
import type { MessageKind } from '../monitor/messages';

export function alertMessageInput(episodeId: number, app: AppInfo, since: Date, details: AlertDetails, appUrl: string): AlertMessageInput {
  const appKey = `${app.store}__${app.appId}`;
  return {
    episodeId: String(episodeId),
    app,
    scope: details.scope,
    since: new Date(since),
    signals: details.signals.map((s) =>
      s.metric === 'topic'
        ? { metric: s.metric, term: s.term, forms: s.forms, reviews: s.reviews, low: s.low, usualPerDay: s.usualPerDay, ratio: s.ratio, baselineDays: s.baselineDays }
        : s.metric === 'low_share'
          ? { metric: s.metric, reviews: s.reviews, low: s.low, share: s.share, usualShare: s.usualShare }
          : { metric: s.metric, reviews: s.reviews, average: s.average, usualAverage: s.usualAverage },
    ),
    concentration: details.concentration.map((c) => ({ kind: c.scope.kind === 'country' ? 'country' : 'version', value: c.scope.value, low: c.low, reviews: c.reviews })),
    cited: details.cited.map((r) => ({
      reviewId: String(r.id),
      rating: r.rating,
      title: r.title,
      body: r.body,
      author: r.author,
      country: r.country,
      version: r.version,
      link: `${appUrl}/dashboard/reviews?${new URLSearchParams({ review: String(r.id) })}`,
    })),
    // The inbox's own view query: the app's low reviews since the episode began (in its country, for a country alert;
    // using the term, for a topic).
    inboxUrl: `${appUrl}/dashboard/reviews?${new URLSearchParams(filtersToQuery(inboxView(appKey, since, details)))}`,
  };
}

function inboxView(appKey: string, since: Date, details: AlertDetails) {
  const from = new Date(since).toISOString().slice(0, 10);
  const topic = details.signals.find((s) => s.metric === 'topic');
  if (details.scope.kind === 'topic' && topic) return { app: [appKey], q: termSearch(topic.term, topic.forms), from };
  const rating = details.signals.some((s) => s.metric === 'low_share') ? [1, 2] : [1, 2, 3];
  return { app: [appKey], rating, ...(details.scope.kind === 'country' ? { country: [details.scope.value] } : {}), from };
}

/** Spike alerts as a message kind of the engine (registered by server/messageKinds.ts): built from the queued episode. */
export const alertMessageKind: MessageKind = {
  kind: 'alert',
  build: (d, app, appUrl) => ({ type: 'alert', input: alertMessageInput(d.alert_episode_id!, app, d.alert_since!, d.alert_details as AlertDetails, appUrl) }),
};
