export type RawAnswer = { status: number; rawHeaders: string[]; body: Buffer };
export function requestRaw(url: string, options?: { method?: string; body?: string; headers?: Record<string, string> }): Promise<RawAnswer>;
export function replayedHeaders(rawHeaders: string[]): string[];
