/**
 * Gives the C heap's free pages back to the operating system (glibc's malloc_trim), so that memory a one-off job used
 * stops counting in the process's resident size.
 *
 * Why: V8 compiles with zones it mallocs and frees; glibc keeps freed chunks in its arenas for reuse and only returns
 * the top of the main heap on its own. Compiling the embedded database's WebAssembly (PGlite) and the first import of
 * large modules leave tens of MB free but resident in those arenas for the life of the process (measured with
 * /proc/self/smaps on a server opened on PGlite: 256 → 191 MB after one malloc_trim(0), the helper thread's 47 MB arena
 * going from 27 MB resident to 3). malloc_trim(0) walks every arena and releases its free pages with
 * madvise(MADV_DONTNEED); live memory is untouched, and a page freed this way costs one page fault if malloc reuses it.
 *
 * malloc_trim does not release the top of the arenas other than the main one (glibc's mtrim only shrinks the main
 * heap), and glibc stops giving tops back on its own once a large block has been freed: it then raises its trim
 * threshold, up to 64 MB. So a long-running process also fixes the thresholds (`mallopt`, keepMallocHeapTrimmed):
 * free() gives back any arena's top above TRIM_THRESHOLD as it happens. Measured on PGlite with 10,000 sources polled
 * (bench/sources-memory.ts): V8's helper thread's arena held 41–48 MB with 3.4 MB in use (malloc_stats), 20–29 MB of
 * it resident after every trim; with a 4 MB threshold (1 MB: the same) the process ended the run 17–19 MB lower
 * (16 MB: no change: the free top stayed under it). The mmap threshold is set to glibc's own dynamic maximum (32 MB):
 * fixing one threshold fixes both, and left where it stood the mmap threshold could stay at 128 KB and turn every
 * larger block into an mmap (tried at 32–64 KB: CPU per poll ×1.5–2.5). Cost of the two: none measurable, CPU per
 * poll (bench/poll-cpu.ts) and ingest (bench/ingest.ts) within the noise in 3–4 alternating pairs each.
 *
 * Called through koffi (a prebuilt FFI, no compiler at install). Where there is no glibc (macOS, Alpine's musl) or the
 * FFI cannot load, it does nothing: this is a footprint saving, never a requirement.
 */
import { createRequire } from 'node:module';
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import { log } from '../log';

type Trim = (pad: number) => number;
type Mallopt = (param: number, value: number) => number;

const TRIM_AFTER_GC_DELAY_MS = 1000;
/** glibc's mallopt parameters (malloc.h). */
const M_TRIM_THRESHOLD = -1;
const M_MMAP_THRESHOLD = -3;
/** Free memory at the top of an arena beyond this goes back to the OS at once (glibc: 128 KB, raised up to 64 MB). */
const TRIM_THRESHOLD = 4 * 1024 * 1024;
/** Blocks from this size on are mmapped apart (glibc's dynamic maximum on 64-bit). */
const MMAP_THRESHOLD = 32 * 1024 * 1024;

/** glibc's two functions, loaded once: null where they cannot be (no glibc, no FFI). */
let libc: { trim: Trim; mallopt: Mallopt } | null | undefined;

function loadLibc(): typeof libc {
  if (libc !== undefined) return libc;
  libc = null;
  if (process.platform !== 'linux') return libc;
  try {
    // Required at run time, not imported: the module is native, and the site's bundles never need it.
    const koffi = createRequire(__filename)('koffi') as typeof import('koffi');
    const lib = koffi.load('libc.so.6');
    libc = { trim: lib.func('int malloc_trim(size_t pad)') as Trim, mallopt: lib.func('int mallopt(int param, int value)') as Mallopt };
  } catch (err) {
    log.debug('malloc_trim is not available here; the C heap keeps its free pages', { err: (err as Error).message });
  }
  return libc;
}

/** Whether this process can trim its C heap (Linux with glibc). */
export function canTrimMallocHeap(): boolean {
  return loadLibc() !== null;
}

/**
 * Releases the C heap's free pages now. Returns how many MB the resident size fell by (0 when nothing was free), or
 * null where it cannot be done. Costs ~0.1 ms with little to release, a few ms after a big compile.
 */
export function trimMallocHeap(): number | null {
  const fns = loadLibc();
  if (!fns) return null;
  const before = process.memoryUsage.rss();
  fns.trim(0);
  return Math.max(0, before - process.memoryUsage.rss()) / 1024 / 1024;
}

/**
 * For a long-running process, once its database is open: trims now (what opening it compiled), fixes glibc's trim and
 * mmap thresholds so that free() gives back arena tops above 4 MB (top of this file), then trims after V8's major
 * garbage collections, at most once per `minIntervalMs` — a major GC is when V8 has just freed its compilers' and the
 * engine's dead memory, so that is when the arenas hold the most free pages. Returns a stop.
 */
export function keepMallocHeapTrimmed(minIntervalMs = 10_000): () => void {
  const freed = trimMallocHeap();
  if (freed === null) return () => {};
  // Both set, mmap first: setting either one stops glibc's dynamic adjustment of both (see the top of this file).
  const { mallopt } = loadLibc()!;
  if (!mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) || !mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)) {
    log.debug('mallopt refused a threshold; the C heap keeps glibc\'s own');
  }
  log.debug('gave free C heap pages back to the OS', { mb: Math.round(freed) });
  let last = 0;
  const observer = new PerformanceObserver((list) => {
    const major = list.getEntries().some((e) => (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR);
    const now = Date.now();
    if (!major || now - last < minIntervalMs) return;
    last = now;
    // A second later, not at once: V8 frees dead ArrayBuffers' memory on a background thread after the GC, and those
    // frees must have happened for their pages to be released.
    setTimeout(() => trimMallocHeap(), TRIM_AFTER_GC_DELAY_MS).unref();
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}
