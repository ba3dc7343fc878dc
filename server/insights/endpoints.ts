/**
 * GET v1/org/apps/{appKey}/terms: an app's words and topics for a period against the one before. Everyone in the
 * organisation reads it (the plan's trends feature); another organisation's app is not found (404).
 */
import { z } from 'zod';
import { endpoint } from '../http/api';
import { membershipOf } from '../org/membership';
import { appKeyParam } from '../orgApps/endpoints';
import { day } from '../stats/endpoints';
import { appTermsOf } from './appTerms';
import { INSIGHT_DEFAULT_DAYS, periodsOf } from './period';

export const periodQuery = z.object({
  from: day('from').meta({ description: `First day (UTC), included; default: ${INSIGHT_DEFAULT_DAYS - 1} days before to.` }),
  to: day('to').meta({ description: 'Last day (UTC), included; default: today.' }),
});

const periodShape = {
  from: z.string(),
  to: z.string(),
  reviews: z.number().meta({ description: 'Reviews of the period whose words were counted.' }),
  capped: z.boolean().meta({ description: 'The period had more reviews than are read: the newest were counted.' }),
};

export const termShape = z.object({
  term: z.string(),
  kind: z.enum(['word', 'phrase']),
  reviews: z.number().meta({ description: 'Reviews of the period that use it.' }),
  share: z.number().meta({ description: 'Their share of the period’s reviews, 0–1.' }),
  previous_reviews: z.number(),
  previous_share: z.number(),
  z: z.number().meta({ description: 'Log-odds z-score of the change (informative prior): above 1.96 rising, below −1.96 falling.' }),
  review_ids: z.array(z.string()).meta({ description: 'Up to five reviews using it (of the previous period for a falling term).' }),
  search: z.string().meta({ description: 'The inbox search (q) that lists its reviews.' }),
});

export const termListsShape = {
  rising: z.array(termShape),
  falling: z.array(termShape),
  top: z.array(termShape).meta({ description: 'The most used in the period.' }),
};

export const appTermsEndpoint = endpoint({
  summary: "An app's words and phrases rising and falling against the previous period, and the most used",
  tags: ['apps'],
  auth: 'user',
  params: appKeyParam,
  query: periodQuery,
  response: z.object({
    app: z.object({ key: z.string(), title: z.string(), store: z.string() }),
    ...periodShape,
    previous: z.object(periodShape).meta({ description: 'The same number of days just before.' }),
    ...termListsShape,
  }),
  handler: async ({ auth, params, query }) => appTermsOf(await membershipOf(auth), params.appKey, periodsOf(query)),
});
