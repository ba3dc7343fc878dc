/** The organisation's apps (GET/POST v1/org/apps, DELETE v1/org/apps/{appKey}) and their store credentials (PUT/DELETE v1/org/apps/{appKey}/credentials). */
import { api, call } from './client';
import type { ApiBody, ApiData } from './openapi';
import { signedIn } from './org';

export type OrgApp = ApiData<'/api/v1/org/apps', 'get'>[number];
export type NewOrgApp = ApiBody<'/api/v1/org/apps', 'post'>;
export type AppCredentials = ApiBody<'/api/v1/org/apps/{appKey}/credentials', 'put'>;

export const listOrgApps = async () => call<OrgApp[]>(api.get('v1/org/apps', await signedIn()));
export const addOrgApp = async (input: NewOrgApp) => call<OrgApp>(api.post('v1/org/apps', input, await signedIn()));
export const removeOrgApp = async (key: string) => call<{ ok: true }>(api.delete(`v1/org/apps/${encodeURIComponent(key)}`, await signedIn()));

const credentialsPath = (key: string) => `v1/org/apps/${encodeURIComponent(key)}/credentials`;
export const putAppCredentials = async (key: string, input: AppCredentials) => call<OrgApp>(api.put(credentialsPath(key), input, await signedIn()));
export const deleteAppCredentials = async (key: string) => call<{ ok: true }>(api.delete(credentialsPath(key), await signedIn()));
