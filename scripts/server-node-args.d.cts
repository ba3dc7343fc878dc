export declare const SERVER_NODE_FLAGS: string[];
/** node's arguments for a server entry point, relative to the project root. */
export declare function argsFor(entry: string): string[];
export declare function serverArgs(): string[];
/** Runs the entry in a child node with the server's flags, passing signals on and exiting with it. */
export declare function runWithServerFlags(entry: string, env?: NodeJS.ProcessEnv): void;
