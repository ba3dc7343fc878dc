// ELD's n-gram database read as JSON instead of compiled as a module (server/ai/enrich/eldData.ts): the very same
// data, and a detector that answers exactly as the package's own `eld/medium` does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { compactNgrams, compactNgramsFile, eldSourceDir, expandNgrams, literalToJson, loadEldMedium, readNgrams } from '@/server/ai/enrich/eldData';

const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-eld-cache-'));
afterAll(() => fs.rmSync(cacheDir, { recursive: true, force: true }));

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

  it('keeps each distinct score set once in its compact form, and comes back from it the same', () => {
    const data = readNgrams(eldSourceDir()) as { ngrams: Record<string, unknown> };
    const compact = compactNgrams(data);
    expect(compact.sets.length).toBeLessThan(Object.keys(data.ngrams).length / 4);
    expect(isDeepStrictEqual(expandNgrams(JSON.parse(JSON.stringify(compact))), data)).toBe(true);
  });

  it('detects what eld/medium detects', async () => {
    const ours = await loadEldMedium(cacheDir);
    const { eld } = await import('eld/medium');
    const texts = [
      'Crashes every time I open it', 'Sehr gut, macht was es soll', 'Muy buena aplicación', 'Très pratique, je recommande',
      'Отличное приложение', 'このアプリは素晴らしい', '这个应用很好用', 'تطبيق رائع جدا', 'Aplikacja działa świetnie', 'ok 👍',
      'Ottima app, la consiglio', 'Aplicativo muito bom', 'Bardzo dobra', 'Çok güzel bir uygulama', 'Ứng dụng rất tốt',
    ];
    // And the evaluation sets' reviews (title and body as enrichment joins them), and long texts cut from them.
    for (const file of ['review-eval.json', 'review-eval-holdout.json']) {
      const { reviews } = JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures', file), 'utf8')) as { reviews: Array<{ title: string; body: string }> };
      for (const r of reviews) texts.push(r.title ? `${r.title}.\n${r.body}` : r.body);
    }
    const long = texts.join(' ');
    for (let i = 0; i < long.length; i += 211) texts.push(long.slice(i, i + 1500));
    for (const text of texts) expect(ours.detect(text).language).toBe(eld.detect(text).language);
    expect(texts.length).toBeGreaterThan(400);
  });
});

describe('the compact database file', () => {
  it('is made once by a child process, then read; a damaged one is made again', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-eld-file-'));
    try {
      const file = compactNgramsFile(eldSourceDir(), dir);
      expect(path.basename(file)).toMatch(/^eld-medium-\d+\.\d+\.\d+\.compact-v1\.json$/);
      const first = await loadEldMedium(dir);
      const made = fs.statSync(file).mtimeMs;
      expect(first.detect('Sehr gut, macht was es soll').language).toBe('de');
      await loadEldMedium(dir);
      expect(fs.statSync(file).mtimeMs).toBe(made);
      for (const damaged of ['{"data": {', '{}']) {
        fs.writeFileSync(file, damaged);
        const again = await loadEldMedium(dir);
        expect(again.detect('Muy buena aplicación').language).toBe('es');
      }
      expect(() => JSON.parse(fs.readFileSync(file, 'utf8'))).not.toThrow();
      expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
