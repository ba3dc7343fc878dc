/** The store's own rating of an app, now and per day (GET v1/org/apps/{appKey}/ratings). */
import { api, call } from './client';
import type { ApiData, ApiQuery } from './openapi';
import { signedIn } from './org';

export type AppRatings = ApiData<'/api/v1/org/apps/{appKey}/ratings', 'get'>;
export type RatingsSpan = NonNullable<ApiQuery<'/api/v1/org/apps/{appKey}/ratings', 'get'>>;

export const appRatings = async (appKey: string, span: RatingsSpan) =>
  call<AppRatings>(api.get(`v1/org/apps/${encodeURIComponent(appKey)}/ratings`, { ...(await signedIn()), params: span }));
