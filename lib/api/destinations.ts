/** The dashboard's destination calls (GET/PATCH/DELETE v1/org/destinations, POST …/{id}/test). Throw ApiError. */
import { api, call } from './client';
import type { ApiBody, ApiData } from './openapi';
import { signedIn } from './org';

export type OrgDestination = ApiData<'/api/v1/org/destinations', 'get'>[number];
export type DestinationChange = ApiBody<'/api/v1/org/destinations/{id}', 'patch'>;
export type TestResult = ApiData<'/api/v1/org/destinations/{id}/test', 'post'>;

const path = (id: string) => `v1/org/destinations/${encodeURIComponent(id)}`;

export const listDestinations = async () => call<OrgDestination[]>(api.get('v1/org/destinations', await signedIn()));
export const changeDestination = async (id: string, change: DestinationChange) => call<OrgDestination>(api.patch(path(id), change, await signedIn()));
export const deleteDestination = async (id: string) => call<{ ok: true }>(api.delete(path(id), await signedIn()));
export const testDestination = async (id: string) => call<TestResult>(api.post(`${path(id)}/test`, {}, await signedIn()));
export type RotatedSecret = ApiData<'/api/v1/org/destinations/{id}/rotate-secret', 'post'>;
export const rotateDestinationSecret = async (id: string) => call<RotatedSecret>(api.post(`${path(id)}/rotate-secret`, {}, await signedIn()));
