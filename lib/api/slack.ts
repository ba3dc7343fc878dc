/** The "Link your Slack account" call (POST v1/slack/link), with the signed-in session. */
import { api, call } from './client';
import type { ApiData } from './openapi';
import { signedIn } from './org';

export type SlackLinked = ApiData<'/api/v1/slack/link', 'post'>;

export const linkSlackAccount = async (token: string) => call<SlackLinked>(api.post('v1/slack/link', { token }, await signedIn()));
