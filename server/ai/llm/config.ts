/** The language model this server talks to, from the environment; null when none is configured. */
import { env } from '../../env';

export type LlmConfig = {
  /** Up to and including the API version, without a trailing slash: `…/v1`. */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  firstTokenTimeoutMs: number;
  totalTimeoutMs: number;
  maxRetries: number;
  /** Tokens per organisation and calendar month; 0 = no limit. */
  monthlyTokensPerOrg: number;
};

export function llmConfig(): LlmConfig | null {
  const e = env();
  if (!e.LLM_BASE_URL || !e.LLM_MODEL) return null;
  return {
    baseUrl: e.LLM_BASE_URL.replace(/\/+$/, ''),
    apiKey: e.LLM_API_KEY,
    model: e.LLM_MODEL,
    firstTokenTimeoutMs: e.LLM_FIRST_TOKEN_TIMEOUT_MS,
    totalTimeoutMs: e.LLM_TIMEOUT_MS,
    maxRetries: e.LLM_MAX_RETRIES,
    monthlyTokensPerOrg: e.LLM_MONTHLY_TOKENS_PER_ORG,
  };
}
