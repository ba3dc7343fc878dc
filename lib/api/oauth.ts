/** The connect flow's optional buttons: which installs this server offers, and starting one. Throw ApiError. */
import { api, call } from './client';

export type PublicConfig = { slack_oauth: boolean; discord_oauth: boolean; allow_private_webhooks: boolean };

/** GET v1/public/config — read at run time, so a server's client ids need no rebuild of the site. */
export function getPublicConfig(): Promise<PublicConfig> {
  return call(api.get('v1/public/config'));
}

/** POST v1/oauth/authorize — the platform's approval page, with the connection payload signed into `state`. */
export function startOAuth(request: { platform: 'slack' | 'discord'; payload: string }): Promise<{ url: string }> {
  return call(api.post('v1/oauth/authorize', request));
}
