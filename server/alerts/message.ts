/**
 * A stored episode (its details, scope and start) → the formatters' AlertMessageInput. Cited reviews link to the
 * review in ARB's inbox, where it can be read in full and replied to; the inbox link lists the app's low reviews.
 */
import type { AlertMessageInput, AppInfo } from '../destinations/types';
import { filtersToQuery } from '@/shared/reviewFilters';
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
      s.metric === 'low_share'
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
    // The inbox's own view query: the app's low reviews since the episode began (in its country, for a country alert).
    inboxUrl: `${appUrl}/dashboard/reviews?${new URLSearchParams(
      filtersToQuery({ app: [appKey], rating: details.signals.some((s) => s.metric === 'low_share') ? [1, 2] : [1, 2, 3], ...(details.scope.kind === 'country' ? { country: [details.scope.value] } : {}), from: new Date(since).toISOString().slice(0, 10) }),
    )}`,
  };
}

/** Spike alerts as a message kind of the engine (registered by server/messageKinds.ts): built from the queued episode. */
export const alertMessageKind: MessageKind = {
  kind: 'alert',
  build: (d, app, appUrl) => ({ type: 'alert', input: alertMessageInput(d.alert_episode_id!, app, d.alert_since!, d.alert_details as AlertDetails, appUrl) }),
};
