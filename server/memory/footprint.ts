/**
 * What a long-running ARB process does for its memory once its database is open (`npm start`, `npm run worker`, and the
 * engine benches, which run the engine as the server does).
 *
 * Every process: the C heap's free pages go back to the OS now and after major GCs, and free() gives back any arena's
 * top above 4 MB from now on (mallocTrim.ts).
 *
 * On the embedded database only, the JavaScript heap grows by 20 % over what survived the last major GC before the next
 * one (V8's --heap-growing-percent) instead of V8's own factor, which it sizes from GC speed and reaches ~2–2.5× here:
 * the engine promotes a steady few MB/s of short-lived poll data (pages and rows held across an await), so with V8's
 * factor the old generation climbed from ~60 to ~160 MB between major GCs, all of it garbage. With PGlite the whole
 * product shares one small machine's memory, so footprint wins: 10,000 sources polled for 15 s
 * (bench/sources-memory.ts), 3 alternating runs each, same minutes: 394–437 MB peak RSS with V8's factor, 338–346 MB
 * with 20 %, 319–321 MB with the trims as well. Cost: a major GC every ~2 s while polling (~10 ms each); on the API's
 * cached answers, 5–15 % fewer requests per second in 2 alternating pairs (bench/api-http.ts) — which is why a
 * PostgreSQL deployment, the one meant to scale, keeps V8's factor. 50 % kept only half the saving (331–336 MB) and
 * cost as much in 2 more pairs. The flag is read at each major GC, so setting it at run time takes effect from the next one.
 */
import v8 from 'node:v8';
import { keepMallocHeapTrimmed } from './mallocTrim';

export const EMBEDDED_HEAP_GROWING_PERCENT = 20;

export function startFootprintUpkeep(database: 'pglite' | 'postgres'): () => void {
  if (database === 'pglite') v8.setFlagsFromString(`--heap-growing-percent=${EMBEDDED_HEAP_GROWING_PERCENT}`);
  return keepMallocHeapTrimmed();
}
