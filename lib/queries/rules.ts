/** React Query hooks of the organisation's rules: the ordered list, changes (each refreshes it) and a dry run. */
import { useMutation, useQuery } from '@tanstack/react-query';
import { createRule, deleteRule, listAllTemplates, listRules, testRule, updateRule, type Rule, type RuleInput, type RuleTest } from '@/lib/api/rules';
import { templateKeys } from './replies';
import { useInvalidatingMutation, type Outcome } from './team';

export const ruleKeys = { all: ['org', 'rules'] as const };

export const useRules = () => useQuery({ queryKey: ruleKeys.all, queryFn: listRules });
export const useCreateRule = (o?: Outcome<RuleInput, Rule>) => useInvalidatingMutation((v: RuleInput) => createRule(v), [ruleKeys.all], o);
type RuleChange = { id: string; change: Partial<RuleInput> & { position?: number } };
export const useUpdateRule = (o?: Outcome<RuleChange, Rule>) => useInvalidatingMutation((v: RuleChange) => updateRule(v.id, v.change), [ruleKeys.all], o);
export const useDeleteRule = (o?: Outcome<string, { ok: true }>) => useInvalidatingMutation((id: string) => deleteRule(id), [ruleKeys.all], o);
export const useTestRule = (o: Outcome<string, RuleTest> = {}) =>
  useMutation({ mutationFn: (id: string) => testRule(id), onSuccess: (r, id) => o.onSuccess?.(r, id), onError: (e) => o.onError?.(e) });

/** Every reply template (under the templates' key, so saving one from a composer refreshes this list too). */
export const useAllTemplates = () => useQuery({ queryKey: [...templateKeys.all, 'every app'], queryFn: listAllTemplates });
