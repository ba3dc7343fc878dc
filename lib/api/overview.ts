/** The organisation's overview (GET v1/org/overview): a card per app, what needs attention, the setup checklist. */
import { api, call } from './client';
import type { ApiData } from './openapi';
import { signedIn } from './org';

export type Overview = ApiData<'/api/v1/org/overview', 'get'>;
export type OverviewApp = Overview['apps'][number];
export type AttentionItem = Overview['attention'][number];

export const getOverview = async () => call<Overview>(api.get('v1/org/overview', await signedIn()));
