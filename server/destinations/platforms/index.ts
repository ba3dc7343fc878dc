/**
 * Every platform's home, one file each: its formatter (review, welcome, alert and weekly summary in, the platform's
 * payload out: pure, within the platform's limits) and `answers`, what its answers mean (AnswerRules). The registry
 * (shared/platforms.ts) names the platforms; a registry entry without its file here fails tsc.
 */
import type { Platform } from '@/shared/platforms';
import type { AnswerRules } from '../answers';
import * as discord from './discord';
import * as email from './email';
import * as googlechat from './googlechat';
import * as mattermost from './mattermost';
import * as msteams from './msteams';
import * as slack from './slack';
import * as telegram from './telegram';
import * as webex from './webex';
import * as webhook from './webhook';

export const PLATFORM_MODULES = { slack, msteams, mattermost, discord, webex, googlechat, telegram, email, webhook } satisfies Record<Platform, { answers: AnswerRules }>;

export const answerRulesOf = (platform: Platform): AnswerRules => PLATFORM_MODULES[platform].answers;
