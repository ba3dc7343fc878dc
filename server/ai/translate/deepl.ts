/**
 * DeepL API v2: POST /v2/translate (`text` list, `target_lang` upper-case), GET /v2/languages?type=target, the key in
 * `Authorization: DeepL-Auth-Key …`. DeepL has no detect call: a translation reports `detected_source_language`.
 */
import { callService, type Translator } from './types';

export function deepl(apiKey: string, baseUrl?: string): Translator {
  const base = (baseUrl ?? (apiKey.endsWith(':fx') ? 'https://api-free.deepl.com' : 'https://api.deepl.com')).replace(/\/+$/, '');
  const headers = { Authorization: `DeepL-Auth-Key ${apiKey}`, 'Content-Type': 'application/json' };
  const translate = (texts: string[], target: string, source?: string) =>
    callService<{ translations: Array<{ text: string; detected_source_language: string }> }>('DeepL', `${base}/v2/translate`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text: texts, target_lang: target.toUpperCase(), ...(source ? { source_lang: source.toUpperCase() } : {}) }),
    });
  return {
    name: 'deepl',
    async translate(texts, target, source) {
      if (!texts.length) return [];
      return (await translate(texts, target, source)).translations.map((t) => t.text);
    },
    async detect(text) {
      const r = await translate([text], 'en');
      return r.translations[0]?.detected_source_language.toLowerCase() ?? null;
    },
    async languages() {
      const r = await callService<Array<{ language: string; name: string }>>('DeepL', `${base}/v2/languages?type=target`, { headers });
      return r.map((l) => ({ code: l.language.toLowerCase(), name: l.name }));
    },
  };
}
