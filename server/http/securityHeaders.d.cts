export type CspOptions = { dev?: boolean; posthogHost?: string; apiBase?: string; searchBase?: string; scriptHashes?: string[] };
export function contentSecurityPolicy(options?: CspOptions): string;
export function withScriptHashes(csp: string, hashes: string[]): string;
export const API_CONTENT_SECURITY_POLICY: string;
export function securityHeaders(options: { csp: string; https?: boolean }): Array<[string, string]>;
