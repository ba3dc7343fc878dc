/** The signed-in app's organisation and team calls (GET/PATCH v1/org, members, invitations, leave, audit log). */
import { api, ApiError, call, withBearer } from './client';
import type { ApiBody, ApiData } from './openapi';
import { freshAccessToken } from '@/lib/session';

export type Organisation = ApiData<'/api/v1/org', 'get'>;
export type OrgRole = Organisation['role'];
export type OrgMember = ApiData<'/api/v1/org/members', 'get'>[number];
export type OrgInvitation = ApiData<'/api/v1/org/invitations', 'get'>[number];
/** An invite's answer: the invitation and what happened to its e-mail (sent now, or not again yet). */
export type InviteAnswer = ApiData<'/api/v1/org/invitations', 'post'>;
/** What a removed member left behind: their revoked invitations and the API keys they made that still work. */
export type Departure = ApiData<'/api/v1/org/members/{id}', 'delete'>;
export type AuditEntry = ApiData<'/api/v1/org/audit-log', 'get'>[number];
export type Page<T> = { data: T[]; has_more: boolean };

/** The bearer header of the signed-in session (renewed first when it is about to run out). */
export async function signedIn() {
  const token = await freshAccessToken();
  if (!token) throw new ApiError('Your session has ended. Sign in again.', 401, 'unauthorized');
  return withBearer(token);
}

export const getOrganisation = async () => call<Organisation>(api.get('v1/org', await signedIn()));
export const renameOrganisation = async (name: string) => call<{ name: string }>(api.patch('v1/org', { name }, await signedIn()));
export const listMembers = async () => call<OrgMember[]>(api.get('v1/org/members', await signedIn()));
export const listInvitations = async () => call<OrgInvitation[]>(api.get('v1/org/invitations', await signedIn()));
export const inviteMember = async (input: ApiBody<'/api/v1/org/invitations', 'post'>) =>
  call<InviteAnswer>(api.post('v1/org/invitations', input, await signedIn()));
export const cancelInvitation = async (id: string) => call<{ ok: true }>(api.delete(`v1/org/invitations/${encodeURIComponent(id)}`, await signedIn()));
export const changeMemberRole = async (id: string, role: OrgRole) =>
  call<OrgMember>(api.patch(`v1/org/members/${encodeURIComponent(id)}`, { role }, await signedIn()));
export const removeMember = async (id: string) => call<Departure>(api.delete(`v1/org/members/${encodeURIComponent(id)}`, await signedIn()));
export const deleteOrganisation = async (confirm: string) => call<{ ok: true }>(api.delete('v1/org', { ...(await signedIn()), data: { confirm } }));
export const leaveOrganisation = async () => call<Departure>(api.post('v1/org/leave', {}, await signedIn()));
export async function auditLog(before?: string): Promise<Page<AuditEntry>> {
  const r = await api.get<Page<AuditEntry>>('v1/org/audit-log', { ...(await signedIn()), params: { limit: 25, ...(before ? { before } : {}) } });
  return r.data;
}
