export type RunningServer = { url: string; port: number; logFile: string; pid: number | undefined; stop: () => Promise<void> };
export function freePort(): Promise<number>;
export function startServer(opts: { dataDir: string; distDir?: string; env?: Record<string, string> }): Promise<RunningServer>;
