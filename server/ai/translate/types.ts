/** One interface over every translation service ARB can use (index.ts picks one from the environment). */
export type Language = { code: string; name: string };

export interface Translator {
  /** Stored with each translation: which service made it. */
  readonly name: 'libretranslate' | 'deepl' | 'google' | 'llm';
  /** `texts` in `target` (ISO 639-1), in order; `source` when known, else the service detects it. */
  translate(texts: string[], target: string, source?: string): Promise<string[]>;
  /** The language of `text`, or null when the service cannot tell. */
  detect(text: string): Promise<string | null>;
  /** The languages it translates to. */
  languages(): Promise<Language[]>;
}

export class TranslationError extends Error {
  constructor(
    message: string,
    readonly status = 502,
  ) {
    super(message);
    this.name = 'TranslationError';
  }
}

/** A JSON POST/GET to a translation service, with its failure in words (never its key). */
export async function callService<T>(service: string, url: string, init: RequestInit = {}, timeoutMs = 15_000): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new TranslationError(`${service} could not be reached: ${(err as Error).message}`);
  }
  const text = await res.text();
  if (!res.ok) {
    let message = text.slice(0, 300);
    try {
      const body = JSON.parse(text) as { error?: string | { message?: string }; message?: string };
      message = (typeof body.error === 'string' ? body.error : body.error?.message) ?? body.message ?? message;
    } catch {
      // the text itself
    }
    throw new TranslationError(`${service} answered ${res.status}: ${message}`);
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new TranslationError(`${service} answered something that is not JSON.`);
  }
}
