/** An app's ratings and trends (GET v1/org/apps/{appKey}/stats). */
import { api, call } from './client';
import type { ApiData, ApiQuery } from './openapi';
import { signedIn } from './org';

export type AppStats = ApiData<'/api/v1/org/apps/{appKey}/stats', 'get'>;
export type StatsSpan = NonNullable<ApiQuery<'/api/v1/org/apps/{appKey}/stats', 'get'>>;

export const appStats = async (appKey: string, span: StatsSpan) =>
  call<AppStats>(api.get(`v1/org/apps/${encodeURIComponent(appKey)}/stats`, { ...(await signedIn()), params: span }));
