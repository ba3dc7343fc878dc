export type ApiRouteFile = { file: string; path: string };
export const TABLE_FILE: string;
export function apiRouteFiles(dir?: string, prefix?: string): ApiRouteFile[];
export function renderRouteTable(files: ApiRouteFile[]): string;
export function writeRouteTable(): boolean;
