/** An app's words and topics (GET v1/org/apps/{appKey}/terms) and its summaries (…/reviews/summary). */
import { api, call } from './client';
import type { ApiData, ApiQuery } from './openapi';
import { signedIn } from './org';

export type AppTerms = ApiData<'/api/v1/org/apps/{appKey}/terms', 'get'>;
export type TermItem = AppTerms['rising'][number];
export type InsightPeriod = NonNullable<ApiQuery<'/api/v1/org/apps/{appKey}/terms', 'get'>>;

const appPath = (appKey: string) => `v1/org/apps/${encodeURIComponent(appKey)}`;

export const appTerms = async (appKey: string, period: InsightPeriod) =>
  call<AppTerms>(api.get(`${appPath(appKey)}/terms`, { ...(await signedIn()), params: period }));

export type ReviewSummary = ApiData<'/api/v1/org/apps/{appKey}/reviews/summary/{summaryId}', 'get'>;

export const requestSummary = async (appKey: string, period: InsightPeriod) =>
  call<ReviewSummary>(api.post(`${appPath(appKey)}/reviews/summary`, period, await signedIn()));

export const reviewSummary = async (appKey: string, id: string) =>
  call<ReviewSummary>(api.get(`${appPath(appKey)}/reviews/summary/${encodeURIComponent(id)}`, await signedIn()));
