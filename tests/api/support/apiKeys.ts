/** A new API key (`arb_…`) of the caller's organisation, made through the dashboard's route as a member would. */
import { expect } from 'vitest';
import type { TestApi } from '../../helpers/api';
import { call, type CallOptions } from '../../helpers/request';

/** The key and its id; `auth` is the member's session (and, where a file keeps clients apart, its IP). */
export async function newApiKey(api: TestApi, auth: Pick<CallOptions, 'token' | 'ip'>, name = 'script'): Promise<{ key: string; id: string }> {
  const r = await call<{ key: string; id: string }>(api, 'POST', '/api/v1/org/api-keys', { name }, auth);
  expect(r.status, r.text).toBe(201);
  return r.json.data;
}
