/** The dashboard's API key calls (GET/POST v1/org/api-keys, DELETE v1/org/api-keys/{id}). Throw ApiError. */
import { api, call } from './client';
import type { ApiData } from './openapi';
import { signedIn } from './org';

export type ApiKey = ApiData<'/api/v1/org/api-keys', 'get'>[number];
export type CreatedApiKey = ApiData<'/api/v1/org/api-keys', 'post'>;

export const listApiKeys = async () => call<ApiKey[]>(api.get('v1/org/api-keys', await signedIn()));
export const createApiKey = async (name: string) => call<CreatedApiKey>(api.post('v1/org/api-keys', { name }, await signedIn()));
export const revokeApiKey = async (id: string) => call<{ ok: true }>(api.delete(`v1/org/api-keys/${encodeURIComponent(id)}`, await signedIn()));
