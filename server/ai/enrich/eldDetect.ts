/**
 * ELD's detection (eld/src/languageDetector.js, `detect`), the same steps on the same database, in typed arrays. The
 * package keeps each n-gram's scores as an object keyed by language number ({"0": 176, "12": 33}) and adds them up
 * with `for…in`, after a look-up of each n-gram (a string built per n-gram) in an object of 105,548 keys, and collects
 * the text's n-grams as keys of another object: ~22 µs of a review's ~55 µs of detection inside the ingest (a CPU
 * profile of bench/ingest.ts). Here each n-gram is a number made of its characters (each < 256, at most 6) in an
 * open-addressing table, each distinct score set (19,238 in the medium database) a run of (language, score + 53)
 * pairs in one Int32Array, and no string is built per n-gram: 3.6 µs a text against the package's 22 µs, in a loop.
 * The result is the package's: its own regular expression for word separators and its own byte dictionary are used,
 * and tests/unit/eldData.test.ts compares the two, the evaluation sets' texts included. Only `language` is given
 * (ARB reads nothing else of the result). The database object is not kept: the table is ~4 MB of typed arrays.
 */
/** What ARB reads of a detection (the same shape as eldData.ts's). */
type Detector = { detect(text: string): { language: string } };

type Ngrams = { languages?: unknown; ngrams?: Record<string, unknown> };

/** The package's minimum score, which its database leaves out of every stored score (languageDetector.js). */
const BASE_NGRAM_SCORE = 53;
/** The longest n-gram: a space, 4 bytes, a space. */
const MAX_NGRAM = 6;

function hash(lo: number, hi: number): number {
  const h = Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1);
  return h ^ (h >>> 15);
}

/** A detector over `data` (the package's `ngramsData` form), with `separators` and `dictionary` from its source. */
export function typedDetector(data: Ngrams, separators: RegExp, dictionary: string[]): Detector {
  const languages = (data.languages ?? {}) as Record<string, string>;
  const count = Object.keys(languages).length;
  const codes = Array.from({ length: count }, (_, i) => languages[i]);
  const setOffset = new Map<unknown, number>();
  const pairs: number[] = [];
  const starts: number[] = [];
  const keys = Object.keys(data.ngrams ?? {});
  // The n-grams in an open-addressing table keyed by their characters as a number (each < 256, at most 6 of them).
  let capacity = 1;
  while (capacity < keys.length * 2) capacity *= 2;
  const mask = capacity - 1;
  const slotLo = new Int32Array(capacity);
  const slotHi = new Int32Array(capacity);
  const slotSet = new Int32Array(capacity).fill(-1);
  const stamp = new Int32Array(capacity);
  for (const key of keys) {
    const scores = data.ngrams![key] as Record<string, number> | null;
    if (!scores || typeof scores !== 'object') continue;
    if (key.length === 0 || key.length > MAX_NGRAM) throw new Error(`eld's database has an n-gram of ${key.length} characters (eldDetect.ts expects 1–${MAX_NGRAM})`);
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      if (c === 0 || c > 255) throw new Error(`eld's database has an n-gram character ${c} (eldDetect.ts expects 1–255)`);
      if (i < 4) lo |= c << (8 * i);
      else hi |= c << (8 * (i - 4));
    }
    let id = setOffset.get(scores);
    if (id === undefined) {
      id = starts.length;
      starts.push(pairs.length);
      // The package's order of addition (integer keys ascending): sums of integers, exact in any order anyway.
      for (const lang in scores) pairs.push(Number(lang), scores[lang] + BASE_NGRAM_SCORE);
      setOffset.set(scores, id);
    }
    let slot = hash(lo, hi) & mask;
    while (slotSet[slot] !== -1) slot = (slot + 1) & mask;
    slotLo[slot] = lo;
    slotHi[slot] = hi;
    slotSet[slot] = id;
  }
  starts.push(pairs.length);
  const packed = Int32Array.from(pairs);
  const bounds = Int32Array.from(starts);
  const score = new Float64Array(count);
  /** The character codes of the package's byte dictionary. */
  const dictCode = Int32Array.from(dictionary, (d) => d.charCodeAt(0));
  /** The text's words as the package's byte strings, as character codes: `wordEnd[w]` ends word w in `bytes`. */
  let bytes = new Int32Array(1024);
  const wordEnd: number[] = [];
  let run = 0;

  /** strToUtf8Bytes of the package, into `bytes` and `wordEnd`. */
  function byteWords(str: string): void {
    wordEnd.length = 0;
    let n = 0;
    let wordStart = 0;
    let countBytes = 0;
    const cutAfter = 350;
    const enforceCutAfter = 380;
    if (bytes.length < str.length * 4 + 8) bytes = new Int32Array(str.length * 4 + 8);
    for (let ii = 0; ii < str.length; ii++) {
      let charCode = str.charCodeAt(ii);
      if (charCode < 0x80) {
        if (charCode === 32) {
          if (n > wordStart) {
            wordEnd.push(n);
            wordStart = n;
          }
          if (countBytes > cutAfter) break;
        } else {
          bytes[n++] = charCode;
        }
        countBytes++;
      } else if (charCode < 0x800) {
        bytes[n++] = dictCode[0xc0 | (charCode >> 6)];
        bytes[n++] = dictCode[0x80 | (charCode & 0x3f)];
        countBytes += 2;
      } else if (charCode < 0xd800 || charCode >= 0xe000) {
        bytes[n++] = dictCode[0xe0 | (charCode >> 12)];
        bytes[n++] = dictCode[0x80 | ((charCode >> 6) & 0x3f)];
        bytes[n++] = dictCode[0x80 | (charCode & 0x3f)];
        countBytes += 3;
      } else {
        ii++;
        charCode = 0x10000 + (((charCode & 0x3ff) << 10) | (str.charCodeAt(ii) & 0x3ff));
        bytes[n++] = dictCode[0xf0 | (charCode >> 18)];
        bytes[n++] = dictCode[0x80 | ((charCode >> 12) & 0x3f)];
        bytes[n++] = dictCode[0x80 | ((charCode >> 6) & 0x3f)];
        bytes[n++] = dictCode[0x80 | (charCode & 0x3f)];
        countBytes += 4;
      }
      if (countBytes > enforceCutAfter) break;
    }
    if (n > wordStart) wordEnd.push(n);
  }

  /** Adds the scores of the n-gram bytes[from, to) preceded by a space when `lead`, followed by one when `trail`. */
  function addNgram(from: number, to: number, lead: boolean, trail: boolean): void {
    const length = to - from + (lead ? 1 : 0) + (trail ? 1 : 0);
    if (length > MAX_NGRAM) return; // longer than any in the database
    let lo = 0;
    let hi = 0;
    let shift = 0;
    if (lead) {
      lo = 32;
      shift = 8;
    }
    for (let k = from; k < to; k++, shift += 8) {
      if (shift < 32) lo |= bytes[k] << shift;
      else hi |= bytes[k] << (shift - 32);
    }
    if (trail) {
      if (shift < 32) lo |= 32 << shift;
      else hi |= 32 << (shift - 32);
    }
    let slot = hash(lo, hi) & mask;
    while (slotSet[slot] !== -1) {
      if (slotLo[slot] === lo && slotHi[slot] === hi) {
        // Each distinct n-gram of the text once (the package's object of n-grams).
        if (stamp[slot] === run) return;
        stamp[slot] = run;
        const id = slotSet[slot];
        for (let p = bounds[id], end = bounds[id + 1]; p < end; p += 2) score[packed[p]] += packed[p + 1];
        return;
      }
      slot = (slot + 1) & mask;
    }
  }

  function detect(input: string): { language: string } {
    const text = input.substring(0, 1000).replace(separators, ' ').trim().toLowerCase();
    byteWords(text);
    score.fill(0);
    run = (run + 1) | 0;
    if (run === 0) {
      stamp.fill(0);
      run = 1;
    }
    // getByteNgrams of the package: 4 bytes long, a stride of 3, the word's start and end marked by a space; its
    // `substring(len - 4)` for the last one runs to the word's end even when a word over 70 bytes was cut to 70.
    let start = 0;
    for (const end of wordEnd) {
      const size = end - start;
      let len = size;
      if (len > 70) len = 70;
      let j: number;
      for (j = 0; j + 4 < len; j += 3) addNgram(start + j, start + j + 4, j === 0, false);
      const from = len !== 3 ? Math.max(0, len - 4) : 0;
      addNgram(start + from, end, j === 0, true);
      start = end;
    }
    // getMaxLang: the first language with the highest positive score.
    let best = -1;
    let bestScore = 0;
    for (let i = 0; i < count; i++) {
      if (score[i] > 0 && score[i] > bestScore) {
        bestScore = score[i];
        best = i;
      }
    }
    return { language: best < 0 ? '' : (codes[best] ?? '') };
  }

  return { detect };
}
