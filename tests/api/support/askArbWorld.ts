// The world of the Ask ARB API tests: the connect world's server with a loopback OpenAI-compatible model configured
// (no retries, no per-organisation token budget) and 50 visitor questions a day, reset to that after every test.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../../fakes/llm';
import { startConnectWorld, type ConnectWorld } from './connectWorld';

export type AskArbWorld = { w: ConnectWorld; llm: FakeLlm; llmEnv: () => Record<string, string> };

/** Registers the file's hooks; the returned object's `w` and `llm` are set once beforeAll has run. */
export function askArbWorldHooks(): AskArbWorld {
  const world = {
    llmEnv: () => ({ LLM_BASE_URL: world.llm.baseUrl, LLM_MODEL: 'fake-model', LLM_MAX_RETRIES: '0', LLM_MONTHLY_TOKENS_PER_ORG: '0' }),
  } as unknown as AskArbWorld;
  beforeAll(async () => {
    world.llm = await startFakeLlm();
    world.w = await startConnectWorld({ ...world.llmEnv(), ASK_ARB_VISITOR_DAILY_QUESTIONS: '50' });
  }, 60_000);
  afterEach(() => {
    world.w.setEnv({});
    world.llm.respondWith(() => ({ text: 'OK' }));
  });
  afterAll(async () => {
    await world.w?.close();
    await world.llm?.close();
  });
  return world;
}
