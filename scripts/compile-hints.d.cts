export const HINT: string;
export function startupScripts(distDir: string): string[];
export function addCompileHints(distDir: string): number;
