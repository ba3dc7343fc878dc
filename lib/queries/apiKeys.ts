/** React Query hooks of the API keys page; mutations refresh the list and the audit log. */
import { useQuery } from '@tanstack/react-query';
import { createApiKey, listApiKeys, revokeApiKey, type CreatedApiKey } from '@/lib/api/apiKeys';
import { orgKeys, useInvalidatingMutation, type Outcome } from './team';

export const apiKeyKeys = { all: ['org', 'api-keys'] as const };

export const useApiKeys = () => useQuery({ queryKey: apiKeyKeys.all, queryFn: listApiKeys });

const useKeyMutation = <V, R>(fn: (v: V) => Promise<R>, outcome?: Outcome<V, R>) => useInvalidatingMutation(fn, [apiKeyKeys.all, orgKeys.audit], outcome);

export const useCreateApiKey = (o?: Outcome<string, CreatedApiKey>) => useKeyMutation((name: string) => createApiKey(name), o);
export const useRevokeApiKey = (o?: Outcome<string, { ok: true }>) => useKeyMutation((id: string) => revokeApiKey(id), o);
