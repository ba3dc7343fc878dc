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
 * Called through koffi (a prebuilt FFI, no compiler at install). Where there is no glibc (macOS, Alpine's musl) or the
 * FFI cannot load, it does nothing: this is a footprint saving, never a requirement.
 */
import { createRequire } from 'node:module';
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import { log } from '../log';

type Trim = (pad: number) => number;

const TRIM_AFTER_GC_DELAY_MS = 1000;

let trim: Trim | null | undefined;

function loadTrim(): Trim | null {
  if (trim !== undefined) return trim;
  trim = null;
  if (process.platform !== 'linux') return trim;
  try {
    // Required at run time, not imported: the module is native, and the site's bundles never need it.
    const koffi = createRequire(__filename)('koffi') as typeof import('koffi');
    trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as Trim;
  } catch (err) {
    log.debug('malloc_trim is not available here; the C heap keeps its free pages', { err: (err as Error).message });
  }
  return trim;
}

/** Whether this process can trim its C heap (Linux with glibc). */
export function canTrimMallocHeap(): boolean {
  return loadTrim() !== null;
}

/**
 * Releases the C heap's free pages now. Returns how many MB the resident size fell by (0 when nothing was free), or
 * null where it cannot be done. Costs ~0.1 ms with little to release, a few ms after a big compile.
 */
export function trimMallocHeap(): number | null {
  const fn = loadTrim();
  if (!fn) return null;
  const before = process.memoryUsage.rss();
  fn(0);
  return Math.max(0, before - process.memoryUsage.rss()) / 1024 / 1024;
}

/**
 * For a long-running process, once its database is open: trims now (what opening it compiled), then after V8's major
 * garbage collections, at most once per `minIntervalMs` — a major GC is when V8 has just freed its compilers' and the
 * engine's dead memory, so that is when the arenas hold the most free pages. Returns a stop.
 */
export function keepMallocHeapTrimmed(minIntervalMs = 10_000): () => void {
  const freed = trimMallocHeap();
  if (freed === null) return () => {};
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
