/**
 * The words and choices of the AI features that the dashboard and the server share: reply tones, and what to say
 * while the server has no language model or no translator. Pure: the dashboard imports it.
 */

/** The tones "Draft a reply" writes in; each app of an organisation keeps one (org_apps.reply_tone). */
export const REPLY_TONES = ['friendly', 'formal', 'brief'] as const;
export type ReplyTone = (typeof REPLY_TONES)[number];
export const DEFAULT_REPLY_TONE: ReplyTone = 'friendly';

export const REPLY_TONE_LABELS: Record<ReplyTone, string> = { friendly: 'Friendly', formal: 'Formal', brief: 'Brief' };

/** 'German' for 'de' (English names, as the rest of ARB writes them); the code itself when unknown. */
export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** What to show (and answer, with 503) while no translation service and no language model is configured. */
export const TRANSLATION_NOT_CONFIGURED =
  'Translation is not configured on this server. To turn it on, set LIBRETRANSLATE_URL (a self-hosted LibreTranslate), ' +
  'DEEPL_API_KEY or GOOGLE_TRANSLATE_API_KEY, or an OpenAI-compatible language model with LLM_BASE_URL and LLM_MODEL.';

/** What the Draft button says (and the server answers, with 503) while no language model is configured. */
export const DRAFTS_NOT_CONFIGURED =
  'Drafting replies needs a language model, and none is configured on this server. To turn it on, set LLM_BASE_URL and ' +
  'LLM_MODEL (and LLM_API_KEY if it needs one) to any OpenAI-compatible server: OpenAI, Ollama, vLLM, llama.cpp, LM Studio or OpenRouter.';
