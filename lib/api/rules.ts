/**
 * The organisation's rules (GET/POST v1/org/rules, PATCH/DELETE v1/org/rules/{id}) and a rule's dry run over the last
 * 200 reviews (POST v1/org/rules/{id}/test: which would match and what would happen; nothing is changed). Throw ApiError.
 */
import { api, call } from './client';
import { signedIn } from './org';
import type { ReplyTemplate } from './replies';
import type { WorkflowStatus } from '@/shared/workflow';

export type RuleConditions = {
  ratings?: number[];
  keywords_any?: string[];
  keywords_none?: string[];
  languages?: string[];
  countries?: string[];
  versions?: string[];
  sentiments?: string[];
  tags_any?: string[];
  min_length?: number;
  max_length?: number;
};
export type RuleAction =
  | { type: 'tag'; tag_id: string }
  | { type: 'assign'; user_id: string }
  | { type: 'set_status'; status: WorkflowStatus }
  | { type: 'notify'; destination_id: string }
  | { type: 'reply'; template_id: string; mode: 'approval' | 'auto'; daily_cap: number }
  | { type: 'zendesk_ticket' };
export type RuleInput = { name: string; enabled: boolean; apps?: string[] | null; conditions: RuleConditions; actions: RuleAction[]; stop_after?: boolean };
export type Rule = RuleInput & { id: string; position: number; fired_this_week: number; created_at: string; updated_at: string };
export type RuleTestMatch = {
  review_id: string;
  app_key: string;
  rating: number;
  author: string;
  excerpt: string;
  written_at: string | null;
  updated_at: string;
  /** What would happen, one sentence per action (or why nothing would). */
  would: string[];
  /** An earlier rule with stop_after that takes the review first. */
  stopped_by: { id: string; name: string } | null;
};
export type RuleTest = { rule_id: string; checked: number; matched: number; reviews: RuleTestMatch[] };

const rulePath = (id: string) => `v1/org/rules/${encodeURIComponent(id)}`;

export const listRules = async () => call<Rule[]>(api.get('v1/org/rules', await signedIn()));
export const createRule = async (input: RuleInput) => call<Rule>(api.post('v1/org/rules', input, await signedIn()));
export const updateRule = async (id: string, input: Partial<RuleInput> & { position?: number }) => call<Rule>(api.patch(rulePath(id), input, await signedIn()));
export const deleteRule = async (id: string) => call<{ ok: true }>(api.delete(rulePath(id), await signedIn()));
export const testRule = async (id: string) => call<RuleTest>(api.post(`${rulePath(id)}/test`, {}, await signedIn()));

/** Every reply template of the organisation (each belongs to one app), for a rule's reply action. */
export const listAllTemplates = async () => call<ReplyTemplate[]>(api.get('v1/org/reply-templates', await signedIn()));
