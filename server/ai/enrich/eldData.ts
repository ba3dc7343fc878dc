/**
 * ELD's n-gram database, read without compiling it. The package ships it as a 2 MB JavaScript object literal
 * (eld/src/ngrams/medium.js); importing that module made V8 compile it, and the compiler's memory stayed with the
 * process: RSS +171 MB for 58 MB of data (90 MB of it the malloc heap, never given back), measured in a bare node. The
 * same literal turned into JSON and read with JSON.parse costs +60 MB. The n-grams then go to the package's detection
 * steps, rewritten on typed arrays (eldDetect.ts; until 2026-12-02 the package's own detector, createEld in
 * languageDetector.js): the same results (tests/unit/eldData.test.ts compares them with `eld/medium`).
 *
 * Turning the literal into JSON is itself a big transient (+81 MB of RSS for the load, ~1 s): half a million tokens
 * live long enough to reach the old generation. So it is done once per installed eld version, in a child process,
 * into a compact JSON file in DATA_DIR/cache: the 19,238 distinct score sets once, each n-gram pointing at its set by
 * index. A process then loads that file: +33 MB, ~0.2 s, 18 MB live, measured in a bare node.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { env } from '../../env';
import { log } from '../../log';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../../privateFiles';
import { projectRequire } from '../../projectRequire';
import { typedDetector } from './eldDetect';

export type Detector = { detect(text: string): { language: string } };

/** The package's src directory, found from the project (the package exports neither file it needs). */
export function eldSourceDir(): string {
  for (const dir of projectRequire().resolve.paths('eld') ?? []) {
    const src = path.join(dir, 'eld', 'src');
    if (fs.existsSync(path.join(src, 'languageDetector.js'))) return src;
  }
  throw new Error('The eld package (language detection) is not installed.');
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', '0': '\0' };

/** A JavaScript string literal's content with its escapes resolved. */
function unescapeJs(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[^xu])/g, (_, e: string) =>
    e.length > 1 ? String.fromCharCode(parseInt(e.slice(1), 16)) : (ESCAPES[e] ?? e),
  );
}

/**
 * JSON text of a JavaScript literal made of objects, arrays, numbers, true/false/null and quoted strings, with
 * quoted or bare keys — the form of eld's databases. Token by token into an array joined once: a single replace() with
 * a callback was tried and left ~140 MB of garbage in the old generation, uncollected for the rest of a 15 s run
 * (bench/sources-memory.ts on PostgreSQL: 310–320 MB against 191 MB this way).
 */
export function literalToJson(js: string): string {
  const token = /\s+|([{}:,[\]])|'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|([A-Za-z0-9_$.+-]+)/y;
  const out: string[] = [];
  /** The open containers, innermost last: in an object a token after `{` or `,` is a key. */
  const open: string[] = [];
  let prev = '';
  while (token.lastIndex < js.length) {
    const at = token.lastIndex;
    const m = token.exec(js);
    if (!m) throw new Error(`unexpected ${JSON.stringify(js[at])} at ${at}`);
    const [, punct, single, double, word] = m;
    if (punct) {
      if (punct === '{' || punct === '[') open.push(punct);
      else if (punct === '}' || punct === ']') open.pop();
      out.push(punct);
      prev = punct;
      continue;
    }
    if (single === undefined && double === undefined && word === undefined) continue; // white space
    const isKey = open.at(-1) === '{' && (prev === '{' || prev === ',');
    if (word !== undefined && !isKey && (/^-?\d+(\.\d+)?$/.test(word) || word === 'true' || word === 'false' || word === 'null')) out.push(word);
    else out.push(JSON.stringify(word ?? unescapeJs(single ?? double)));
    prev = 'value';
  }
  return out.join('');
}

/** The `ngramsData` of one of the package's databases (ngrams/<name>.js), parsed as JSON. */
export function readNgrams(src: string, name = 'medium'): unknown {
  const text = fs.readFileSync(path.join(src, 'ngrams', `${name}.js`), 'utf8');
  const start = text.indexOf('{', text.indexOf('export const ngramsData'));
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) throw new Error(`eld's ${name} database has an unknown form`);
  const data = JSON.parse(literalToJson(text.slice(start, end + 1))) as { ngrams?: Record<string, unknown> };
  shareEqualScores(data.ngrams ?? {});
  return data;
}

/**
 * Many n-grams carry the same scores ({0: 176}…): 105,548 n-grams, 19,238 different score sets in the medium
 * database. They are read-only, so equal ones can be one object: about half the database's heap.
 */
function shareEqualScores(ngrams: Record<string, unknown>): void {
  const seen = new Map<string, unknown>();
  for (const key in ngrams) {
    const scores = ngrams[key];
    const id = JSON.stringify(scores);
    const same = seen.get(id);
    if (same === undefined) seen.set(id, scores);
    else ngrams[key] = same;
  }
}

type Ngrams = { ngrams?: Record<string, unknown> } & Record<string, unknown>;
/** A database with each distinct score set once: `index` maps every n-gram to its set in `sets`. */
type CompactNgrams = { data: Ngrams; sets: unknown[]; index: Record<string, number> };

export function compactNgrams(data: Ngrams): CompactNgrams {
  const ids = new Map<unknown, number>();
  const sets: unknown[] = [];
  const index: Record<string, number> = {};
  for (const key in data.ngrams ?? {}) {
    const scores = data.ngrams![key];
    let id = ids.get(scores);
    if (id === undefined) {
      id = sets.push(scores) - 1;
      ids.set(scores, id);
    }
    index[key] = id;
  }
  return { data: { ...data, ngrams: {} }, sets, index };
}

/** The database back from its compact form: equal score sets stay one object (they are read-only). */
export function expandNgrams(compact: CompactNgrams): Ngrams {
  const ngrams = compact.index as Record<string, unknown>;
  for (const key in ngrams) ngrams[key] = compact.sets[ngrams[key] as number];
  return { ...compact.data, ngrams };
}

/** Writes the compact form of the medium database to `file` (through a temporary file: readers never see half). */
export function writeCompactNgrams(src: string, file: string): void {
  makePrivateDir(path.dirname(file));
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(compactNgrams(readNgrams(src) as Ngrams)), { mode: PRIVATE_FILE_MODE });
  fs.renameSync(tmp, file);
}

/** Where the compact database of the installed eld lives: a new eld version gets a new file. */
export function compactNgramsFile(src: string, cacheDir: string): string {
  const { version } = JSON.parse(fs.readFileSync(path.join(src, '..', 'package.json'), 'utf8')) as { version: string };
  return path.join(cacheDir, `eld-medium-${version}.compact-v1.json`);
}

const run = promisify(execFile);

/**
 * The medium database: from its compact file, made first by a child process when missing or unreadable. If the child
 * cannot make it (no writable DATA_DIR, no tsx beside this file), it is read here, as before, at the memory cost above.
 */
async function readMediumNgrams(src: string, cacheDir: string): Promise<Ngrams> {
  const file = compactNgramsFile(src, cacheDir);
  const read = () => {
    const compact = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<CompactNgrams>;
    if (!compact.data || !Array.isArray(compact.sets) || typeof compact.index !== 'object' || compact.index === null) {
      throw new Error(`${file} is not a compact n-gram database`);
    }
    return expandNgrams(compact as CompactNgrams);
  };
  try {
    return read();
  } catch {
    // Missing (first start after an install or upgrade) or damaged: made again below.
  }
  try {
    const script = `require(${JSON.stringify(__filename)}).writeCompactNgrams(${JSON.stringify(src)}, ${JSON.stringify(file)})`;
    await run(process.execPath, ['--require', 'tsx/cjs', '-e', script], { env: { ...process.env, LOG_LEVEL: 'error' }, timeout: 120_000 });
    return read();
  } catch (err) {
    log.warn("could not cache the language detector's database; reading it in this process (~50 MB more memory while it loads)", { cacheDir, err: (err as Error).message });
    return readNgrams(src) as Ngrams;
  }
}

/** An ELD detector with the medium database. `cacheDir`: where its compact form is kept (DATA_DIR/cache). */
export async function loadEldMedium(cacheDir = path.join(env().DATA_DIR, 'cache')): Promise<Detector> {
  const src = eldSourceDir();
  const url = (file: string) => pathToFileURL(path.join(src, file)).href;
  const data = await readMediumNgrams(src, cacheDir);
  if (!data.ngrams || !data.languages) throw new Error("eld's medium database did not load");
  // The package's detection with its scores in typed arrays (eldDetect.ts: ~6 times faster), on its own separators
  // and byte dictionary (tests/unit/eldData.test.ts compares it with the package's eld/medium).
  const { separators } = (await import(/* webpackIgnore: true */ url('regexPatterns.js'))) as { separators: RegExp };
  const { dictionary } = (await import(/* webpackIgnore: true */ url('dictionary.js'))) as { dictionary: string[] };
  return typedDetector(data, separators, dictionary);
}
