/**
 * The public API's one review: GET v1/reviews/{id} with an organisation's `arb_` key, in the reviews list's shape,
 * times in unix seconds (the MCP server's get_review reads the same function and answers ISO 8601). Clients that keep
 * a review id — the n8n node's "Get", a script following a webhook — read it again without paging the app's reviews.
 */
import { apiReviewSchema } from '@/shared/review';
import { endpoint } from '../http/api';
import { reviewIdParam } from '../replies/endpoints';
import { apiReviewJson } from './apiReview';
import { reviewOfKey } from './service';

export const publicReviewEndpoint = endpoint({
  statuses: [404],
  summary: "One review of the API key's organisation's apps, by its id",
  tags: ['public API'],
  auth: 'api_key',
  params: reviewIdParam,
  response: apiReviewSchema,
  handler: async ({ apiKey, params }) => apiReviewJson(await reviewOfKey(apiKey!, params.id)),
});
