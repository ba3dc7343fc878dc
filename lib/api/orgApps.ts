/** The organisation's apps (GET/POST v1/org/apps, DELETE v1/org/apps/{appKey}). */
import { api, call } from './client';
import type { ApiBody, ApiData } from './openapi';
import { signedIn } from './org';

export type OrgApp = ApiData<'/api/v1/org/apps', 'get'>[number];
export type NewOrgApp = ApiBody<'/api/v1/org/apps', 'post'>;

export const listOrgApps = async () => call<OrgApp[]>(api.get('v1/org/apps', await signedIn()));
export const addOrgApp = async (input: NewOrgApp) => call<OrgApp>(api.post('v1/org/apps', input, await signedIn()));
export const removeOrgApp = async (key: string) => call<{ ok: true }>(api.delete(`v1/org/apps/${encodeURIComponent(key)}`, await signedIn()));
