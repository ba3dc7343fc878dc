export type RunningServer = { url: string; port: number; logFile: string; pid: number | undefined; stop: () => Promise<void> };
export function freePort(): Promise<number>;
/** Resolves with `dir` once it holds an empty PGlite cluster. */
export function createPgliteTemplate(dir: string): Promise<string>;
export function startServer(opts: { dataDir: string; distDir?: string; env?: Record<string, string>; pgliteTemplate?: string }): Promise<RunningServer>;
