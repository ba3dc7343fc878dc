/** LibreTranslate (self-hosted, open source): POST /translate with `q` as a list, /detect, GET /languages. */
import { callService, TranslationError, type Translator } from './types';

export function libreTranslate(baseUrl: string, apiKey?: string): Translator {
  const base = baseUrl.replace(/\/+$/, '');
  const post = <T>(path: string, body: Record<string, unknown>) =>
    callService<T>('LibreTranslate', `${base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(apiKey ? { ...body, api_key: apiKey } : body),
    });
  return {
    name: 'libretranslate',
    async translate(texts, target, source) {
      if (!texts.length) return [];
      const r = await post<{ translatedText: string[] | string }>('/translate', { q: texts, source: source ?? 'auto', target, format: 'text' });
      const out = Array.isArray(r.translatedText) ? r.translatedText : [r.translatedText];
      if (out.length !== texts.length) throw new TranslationError(`LibreTranslate returned ${out.length} translations for ${texts.length} texts.`);
      return out;
    },
    async detect(text) {
      const r = await post<Array<{ language: string; confidence: number }>>('/detect', { q: text });
      return r[0]?.language ?? null;
    },
    async languages() {
      const r = await callService<Array<{ code: string; name: string }>>('LibreTranslate', `${base}/languages`);
      return r.map(({ code, name }) => ({ code, name }));
    },
  };
}
