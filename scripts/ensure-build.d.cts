export const root: string;
export function staleReason(distDir: string, env?: NodeJS.ProcessEnv): string | null;
export function ensureBuild(opts?: { distDir?: string; env?: NodeJS.ProcessEnv; log?: (msg: string) => void }): { built: boolean; reason: string; ms: number };
