/** The connect flow's optional buttons: which installs this server offers, and starting one. Throw ApiError. */
import type { AxiosRequestConfig } from 'axios';
import { api, call } from './client';
import type { ApiBody, ApiData } from './openapi';

export type PublicConfig = ApiData<'/api/v1/public/config', 'get'>;

/** GET v1/public/config — read at run time, so a server's client ids need no rebuild of the site. */
export function getPublicConfig(): Promise<PublicConfig> {
  return call(api.get('v1/public/config'));
}

/**
 * POST v1/oauth/authorize — the platform's approval page, with the connection payload signed into `state`; `config`
 * carries a session's bearer (the dashboard: the channel will be the organisation's).
 */
export function startOAuth(request: ApiBody<'/api/v1/oauth/authorize', 'post'>, config?: AxiosRequestConfig): Promise<ApiData<'/api/v1/oauth/authorize', 'post'>> {
  return call(api.post('v1/oauth/authorize', request, config));
}
