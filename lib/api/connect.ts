/** Connecting an app to a chat platform, and reading a destination back. These throw ApiError with the server's message. */
import type { AxiosRequestConfig } from 'axios';
import { api, call } from './client';
import type { ApiBody, ApiData } from './openapi';
import type { ConnectResult, Destination } from './types';

/** POST v1/oauth/platform/connect — `payload` is the encoded v2 connection payload (shared/connectionPayload); `config` carries a session's bearer (the dashboard). */
export function connectPlatform(request: ApiBody<'/api/v1/oauth/platform/connect', 'post'>, config?: AxiosRequestConfig): Promise<ConnectResult> {
  return call(api.post('v1/oauth/platform/connect', request, config));
}

/** POST v1/oauth/bot/connect — finishes a bot install (OAuth code + state); `config` carries the session, if any. */
export function connectBot(request: ApiBody<'/api/v1/oauth/bot/connect', 'post'>, config?: AxiosRequestConfig): Promise<ApiData<'/api/v1/oauth/bot/connect', 'post'>> {
  return call(api.post('v1/oauth/bot/connect', request, config));
}

/** POST v1/oauth/slack/callback — finishes "Add to Slack"; `config` carries the session, if any. */
export function finishSlackOAuth(request: ApiBody<'/api/v1/oauth/slack/callback', 'post'>, config?: AxiosRequestConfig): Promise<ApiData<'/api/v1/oauth/slack/callback', 'post'>> {
  return call(api.post('v1/oauth/slack/callback', request, config));
}

/** GET v1/public/destination/{id} — the answer's `data`, which is what `call` unwraps. */
export function getDestination(id: string): Promise<Destination> {
  return call(api.get(`v1/public/destination/${encodeURIComponent(id)}`));
}
