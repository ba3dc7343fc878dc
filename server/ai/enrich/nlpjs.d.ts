// The parts of nlp.js (AXA's @nlpjs packages, plain JavaScript) the sentiment lexicon uses.
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
declare module '@nlpjs/lang-da' {
  export const LangDa: unknown;
}
declare module '@nlpjs/lang-de' {
  export const LangDe: unknown;
}
declare module '@nlpjs/lang-en' {
  export const LangEn: unknown;
}
declare module '@nlpjs/lang-es' {
  export const LangEs: unknown;
}
declare module '@nlpjs/lang-fr' {
  export const LangFr: unknown;
}
declare module '@nlpjs/lang-id' {
  export const LangId: unknown;
}
declare module '@nlpjs/lang-it' {
  export const LangIt: unknown;
}
declare module '@nlpjs/lang-nl' {
  export const LangNl: unknown;
}
declare module '@nlpjs/lang-pl' {
  export const LangPl: unknown;
}
declare module '@nlpjs/lang-pt' {
  export const LangPt: unknown;
}
declare module '@nlpjs/lang-ru' {
  export const LangRu: unknown;
}
declare module '@nlpjs/lang-sv' {
  export const LangSv: unknown;
}
declare module '@nlpjs/lang-tr' {
  export const LangTr: unknown;
}
