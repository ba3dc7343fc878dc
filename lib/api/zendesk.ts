/**
 * Zendesk (GET/PUT/PATCH/DELETE v1/org/integrations/zendesk, POST v1/org/reviews/{id}/ticket). Throw ApiError with the
 * server's plain-word message; a ticket answers 201 (created), 200 (already there), 202 (queued: Zendesk was busy).
 */
import { api, call } from './client';
import type { ApiData } from './openapi';
import { signedIn } from './org';

export type ZendeskStatus = ApiData<'/api/v1/org/integrations/zendesk', 'get'>;
export type ReviewTicket = ApiData<'/api/v1/org/reviews/{id}/ticket', 'post'>;

const path = 'v1/org/integrations/zendesk';
export const getZendesk = async () => call<ZendeskStatus>(api.get(path, await signedIn()));
export const connectZendesk = async (input: { subdomain: string; email: string; api_token: string }) => call<ZendeskStatus>(api.put(path, input, await signedIn()));
export const saveZendeskSecret = async (signing_secret: string) => call<ZendeskStatus>(api.patch(path, { signing_secret }, await signedIn()));
export const disconnectZendesk = async () => call<{ ok: true }>(api.delete(path, { ...(await signedIn()), data: {} }));

/** The ticket and the HTTP status it came with (201 created, 200 already existed, 202 queued). */
export async function createTicket(reviewId: string): Promise<{ ticket: ReviewTicket; status: number }> {
  const r = await api.post<{ data: ReviewTicket }>(`v1/org/reviews/${encodeURIComponent(reviewId)}/ticket`, {}, await signedIn());
  return { ticket: r.data.data, status: r.status };
}
