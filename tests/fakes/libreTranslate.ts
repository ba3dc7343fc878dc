/**
 * A loopback LibreTranslate: POST /translate (`q` a string or a list, `source` a code or "auto", `target`, optional
 * `api_key`), POST /detect, GET /languages, answering in LibreTranslate's shapes and error bodies ({"error": "…"}).
 * Its "translation" is visible and deterministic: `[de] text`.
 *
 *   const lt = await startFakeLibreTranslate({ apiKey: 'k' });   // env LIBRETRANSLATE_URL = lt.url
 *   lt.failTranslations(2);   // the next two /translate calls answer 500 {"error": …}, as a crashed worker does
 *   lt.delayTranslations(500); // /translate answers half a second late (a busy instance), until set back to 0
 */
import { json, startFakeServer, type FakeServer } from './http';

const LANGUAGES = ['en', 'de', 'es', 'fr', 'it', 'pt', 'nl', 'ja'];
const names = new Intl.DisplayNames(['en'], { type: 'language' });

export type FakeLibreTranslate = FakeServer & {
  translateCalls(): Array<{ q: string[]; source: string; target: string }>;
  /** The next `n` translations fail with 500 and LibreTranslate's error body. */
  failTranslations(n: number): void;
  /** /translate answers `ms` late (0: at once). */
  delayTranslations(ms: number): void;
};

export async function startFakeLibreTranslate(opts: { apiKey?: string } = {}): Promise<FakeLibreTranslate> {
  let failing = 0;
  let delayMs = 0;
  const server = await startFakeServer([
    async (req, res) => {
      if (req.method === 'GET' && req.path === '/languages') {
        json(res, 200, LANGUAGES.map((code) => ({ code, name: names.of(code), targets: LANGUAGES.filter((t) => t !== code) })));
        return true;
      }
      if (req.method !== 'POST' || (req.path !== '/translate' && req.path !== '/detect')) return false;
      const body = JSON.parse(req.body || '{}') as { q?: string | string[]; source?: string; target?: string; api_key?: string };
      if (opts.apiKey && body.api_key !== opts.apiKey) {
        json(res, 403, { error: 'Invalid API key' });
        return true;
      }
      if (body.q === undefined) {
        json(res, 400, { error: "Invalid request: missing q parameter" });
        return true;
      }
      if (req.path === '/detect') {
        json(res, 200, [{ confidence: 90, language: /[äöüß]/i.test(String(body.q)) ? 'de' : 'en' }]);
        return true;
      }
      if (!body.target || !LANGUAGES.includes(body.target)) {
        json(res, 400, { error: `${body.target} is not supported` });
        return true;
      }
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      if (failing > 0) {
        failing--;
        json(res, 500, { error: 'Cannot translate text: worker crashed' });
        return true;
      }
      const q = Array.isArray(body.q) ? body.q : [body.q];
      const out = q.map((t) => (t ? `[${body.target}] ${t}` : ''));
      json(res, 200, Array.isArray(body.q) ? { translatedText: out } : { translatedText: out[0] });
      return true;
    },
  ]);
  return {
    ...server,
    failTranslations: (n) => void (failing = n),
    delayTranslations: (ms) => void (delayMs = ms),
    translateCalls: () =>
      server.requests.filter((r) => r.path === '/translate').map((r) => {
        const b = JSON.parse(r.body) as { q: string | string[]; source: string; target: string };
        return { q: Array.isArray(b.q) ? b.q : [b.q], source: b.source, target: b.target };
      }),
  };
}
