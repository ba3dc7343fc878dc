// ELD's n-gram database read as JSON instead of compiled as a module (server/ai/enrich/eldData.ts): the very same
// data, and a detector that answers exactly as the package's own `eld/medium` does.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { eldSourceDir, literalToJson, loadEldMedium, readNgrams } from '@/server/ai/enrich/eldData';

describe('literalToJson', () => {
  it('quotes bare keys, keeps numbers, booleans and null as values, resolves string escapes', () => {
    const js = `{type:'M60', n:{0:'am',12:-3.5}, ok:false, none:null, list:[1,'a',true], 'q\\'k':"d\\"q", ' \\\\L\\x41\\u00e9\\n':{59:52}}`;
    expect(JSON.parse(literalToJson(js))).toEqual({
      type: 'M60', n: { 0: 'am', 12: -3.5 }, ok: false, none: null, list: [1, 'a', true], "q'k": 'd"q', ' \\LAé\n': { 59: 52 },
    });
  });

  it('refuses what it does not know rather than guessing', () => {
    expect(() => literalToJson('{a: `template`}')).toThrow();
  });
});

describe('the medium database, read as JSON', () => {
  it('is the data the package’s module holds', async () => {
    const src = eldSourceDir();
    const theirs = ((await import(pathToFileURL(path.join(src, 'ngrams', 'medium.js')).href)) as { ngramsData: unknown }).ngramsData;
    expect(isDeepStrictEqual(readNgrams(src), theirs)).toBe(true);
  });

  it('detects what eld/medium detects', async () => {
    const ours = await loadEldMedium();
    const { eld } = await import('eld/medium');
    const texts = [
      'Crashes every time I open it', 'Sehr gut, macht was es soll', 'Muy buena aplicación', 'Très pratique, je recommande',
      'Отличное приложение', 'このアプリは素晴らしい', '这个应用很好用', 'تطبيق رائع جدا', 'Aplikacja działa świetnie', 'ok 👍',
      'Ottima app, la consiglio', 'Aplicativo muito bom', 'Bardzo dobra', 'Çok güzel bir uygulama', 'Ứng dụng rất tốt',
    ];
    for (const text of texts) expect(ours.detect(text).language).toBe(eld.detect(text).language);
  });
});
