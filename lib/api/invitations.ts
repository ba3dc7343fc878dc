/**
 * The invitee's calls (docs/SECURITY.md, Membership and invitations): the invitation link's preview (changes nothing),
 * accepting through the link (signs the invited address in and joins), and the signed-in person's open invitations
 * with accept and decline. They throw ApiError so the page can show the server's words (a refusal says what to do).
 */
import { api, call } from './client';
import type { ApiData } from './openapi';
import { signedIn } from './org';
import type { AttributionMetadata } from './types';

export type InvitationPreview = ApiData<'/api/v1/invitations/preview', 'post'>;
export type MyInvitation = ApiData<'/api/v1/invitations', 'get'>[number];
export type JoinedSession = ApiData<'/api/v1/invitations/{id}/accept', 'post'>;

/** POST v1/invitations/preview — the organisation, role and inviter of a link's invitation, and what accepting does. */
export const previewInvitation = (token: string) => call<InvitationPreview>(api.post('v1/invitations/preview', { token }));

/** POST v1/auth/invitation — confirmed on the link's page: signs the invited address in and joins (the session's tokens). */
export const acceptInvitationLink = (token: string, metadata: AttributionMetadata, deleteCurrent: boolean) =>
  call<ApiData<'/api/v1/auth/invitation', 'post'>>(api.post('v1/auth/invitation', { token, metadata, ...(deleteCurrent ? { delete_current: true } : {}) }));

/** GET v1/invitations — the open invitations to the signed-in address. */
export const listMyInvitations = async () => call<MyInvitation[]>(api.get('v1/invitations', await signedIn()));

/** POST v1/invitations/{id}/accept — join; the answer is a new session (every earlier one has ended). */
export const acceptMyInvitation = async (id: string, deleteCurrent: boolean) =>
  call<JoinedSession>(api.post(`v1/invitations/${encodeURIComponent(id)}/accept`, deleteCurrent ? { delete_current: true } : {}, await signedIn()));

/** POST v1/invitations/{id}/decline. */
export const declineMyInvitation = async (id: string) => call<{ ok: true }>(api.post(`v1/invitations/${encodeURIComponent(id)}/decline`, {}, await signedIn()));
