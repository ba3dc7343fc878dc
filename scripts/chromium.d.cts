export const CHROMIUM_PATH: string;
export const CHROMIUM_ARGS: readonly string[];
export const UNSEEN_BROWSER_UI: readonly string[];
export const PLAYWRIGHT_LAUNCH_OPTIONS: { executablePath: string; args: string[]; ignoreDefaultArgs: string[] };
