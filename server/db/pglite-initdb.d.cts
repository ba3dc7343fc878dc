/** Resolves once `dir` holds an empty PGlite cluster (initdb in a child process); `pgliteUrl` is PGlite's file URL. */
export function initPgliteDir(dir: string, pgliteUrl: string, timeoutMs?: number): Promise<void>;
