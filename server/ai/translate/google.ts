/** Google Cloud Translation v2 (basic): POST /language/translate/v2 (`q` list), /detect, GET /languages, `key` param. */
import { callService, type Translator } from './types';

type Answer<T> = { data: T };

export function googleTranslate(apiKey: string, baseUrl: string): Translator {
  const base = `${baseUrl.replace(/\/+$/, '')}/language/translate/v2`;
  const key = `key=${encodeURIComponent(apiKey)}`;
  const post = <T>(path: string, body: Record<string, unknown>) =>
    callService<Answer<T>>('Google Translate', `${base}${path}?${key}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  return {
    name: 'google',
    async translate(texts, target, source) {
      if (!texts.length) return [];
      const r = await post<{ translations: Array<{ translatedText: string }> }>('', { q: texts, target, format: 'text', ...(source ? { source } : {}) });
      return r.data.translations.map((t) => t.translatedText);
    },
    async detect(text) {
      const r = await post<{ detections: Array<Array<{ language: string }>> }>('/detect', { q: [text] });
      const language = r.data.detections[0]?.[0]?.language;
      return language && language !== 'und' ? language : null;
    },
    async languages() {
      const r = await callService<Answer<{ languages: Array<{ language: string; name: string }> }>>('Google Translate', `${base}/languages?target=en&${key}`);
      return r.data.languages.map((l) => ({ code: l.language, name: l.name }));
    },
  };
}
