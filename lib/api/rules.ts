/**
 * The organisation's rules (GET/POST v1/org/rules, PATCH/DELETE v1/org/rules/{id}) and a rule's dry run over the last
 * 200 reviews (POST v1/org/rules/{id}/test: which would match and what would happen; nothing is changed). Throw ApiError.
 * The shapes are the API's own (lib/api/schema.d.ts, made from the server's schemas by `npm run api-types`).
 */
import { api, call } from './client';
import type { ApiBody, ApiData } from './openapi';
import { signedIn } from './org';
import type { ReplyTemplate } from './replies';

export type Rule = ApiData<'/api/v1/org/rules', 'get'>[number];
export type RuleInput = ApiBody<'/api/v1/org/rules', 'post'>;
export type RuleConditions = NonNullable<RuleInput['conditions']>;
export type RuleAction = RuleInput['actions'][number];
export type RuleChange = ApiBody<'/api/v1/org/rules/{id}', 'patch'>;
export type RuleTest = ApiData<'/api/v1/org/rules/{id}/test', 'post'>;
export type RuleTestMatch = RuleTest['reviews'][number];

const rulePath = (id: string) => `v1/org/rules/${encodeURIComponent(id)}`;

export const listRules = async () => call<Rule[]>(api.get('v1/org/rules', await signedIn()));
export const createRule = async (input: RuleInput) => call<Rule>(api.post('v1/org/rules', input, await signedIn()));
export const updateRule = async (id: string, input: RuleChange) => call<Rule>(api.patch(rulePath(id), input, await signedIn()));
export const deleteRule = async (id: string) => call<{ ok: true }>(api.delete(rulePath(id), await signedIn()));
export const testRule = async (id: string) => call<RuleTest>(api.post(`${rulePath(id)}/test`, {}, await signedIn()));

/** Every reply template of the organisation (each belongs to one app), for a rule's reply action. */
export const listAllTemplates = async () => call<ReplyTemplate[]>(api.get('v1/org/reply-templates', await signedIn()));
