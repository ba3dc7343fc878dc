// The parts of nlp.js (AXA's @nlpjs packages, plain JavaScript) the sentiment lexicon uses. The language packages
// (@nlpjs/lang-*) are loaded at run time by name (sentiment.ts) and need no types.
declare module '@nlpjs/core' {
  export type Container = { use(item: unknown): unknown; get(name: string): unknown };
  export function containerBootstrap(settings?: Record<string, unknown>): Container;
}
declare module '@nlpjs/sentiment' {
  import type { Container } from '@nlpjs/core';
  export class SentimentAnalyzer {
    constructor(settings: { container: Container });
    /** Tokens of `text` in `locale` (stemmed when `stemmed`), lower-cased and without accents where the language does. */
    prepare(locale: string, text: string, settings: undefined, stemmed: boolean): string[];
  }
}
