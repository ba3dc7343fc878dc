// The per-organisation monthly token budget of the language-model client, counted in org_usage_months.llm_tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { llmTokensUsed } from '@/server/ai/data';
import { chat } from '@/server/ai/llm/client';
import type { LlmConfig } from '@/server/ai/llm/config';
import { LlmError } from '@/server/ai/llm/errors';
import { usageMonth } from '@/server/plans/data';
import { startFakeLlm, type FakeLlm } from '../fakes/llm';
import { createTestDb, type TestDb } from '../helpers/testDb';
import { newOwner } from '../helpers/orgs';

let llm: FakeLlm;
let db: TestDb;
let config: LlmConfig;

beforeAll(async () => {
  db = await createTestDb();
  llm = await startFakeLlm();
  config = { baseUrl: llm.baseUrl, apiKey: undefined, model: 'fake-model', firstTokenTimeoutMs: 5000, totalTimeoutMs: 10_000, maxRetries: 0, monthlyTokensPerOrg: 0 };
});
afterAll(async () => {
  await llm.close();
  await db.close();
});

const ask = { messages: [{ role: 'user' as const, content: 'How many one-star reviews this week?' }] };
const month = () => usageMonth(new Date());

describe('token budget per organisation and month', () => {
  it("charges the usage the server reported to the caller's organisation, and nothing without one", async () => {
    const owner = await newOwner('llmusage');
    llm.reply({ text: 'Twelve.' }, { text: 'Again.' });
    const answer = await chat(ask, { config, orgId: owner.orgId });
    expect(await llmTokensUsed(owner.orgId, month())).toBe(answer.usage!.totalTokens);
    await chat(ask, { config });
    expect(await llmTokensUsed(owner.orgId, month())).toBe(answer.usage!.totalTokens);
  });

  it('refuses a call once the month is spent, before asking the model', async () => {
    const owner = await newOwner('llmbudget');
    llm.reply({ text: 'A long enough answer to spend the small budget.' });
    const first = await chat(ask, { config: { ...config, monthlyTokensPerOrg: 10 }, orgId: owner.orgId });
    expect(first.usage!.totalTokens).toBeGreaterThanOrEqual(10);
    const before = llm.chatBodies().length;
    const err = await chat(ask, { config: { ...config, monthlyTokensPerOrg: 10 }, orgId: owner.orgId }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect(err).toMatchObject({ code: 'budget', status: 429 });
    expect((err as Error).message).toMatch(/used its 10 language-model tokens for this month/);
    expect(llm.chatBodies().length).toBe(before);
  });

  it('charges an estimate for an answer that failed halfway (those tokens were spent)', async () => {
    const owner = await newOwner('llmhalf');
    llm.reply({ text: 'Half of an answer that breaks', midStreamError: 'openai' });
    await expect(chat(ask, { config, orgId: owner.orgId })).rejects.toThrow(/mid-answer/);
    expect(await llmTokensUsed(owner.orgId, month())).toBeGreaterThan(0);
  });
});
