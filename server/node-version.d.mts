// Types of server/node-version.mjs for the TypeScript tests that import it.
export declare const REQUIRED_NODE_MAJOR: number;
export declare function nodeVersionProblem(version: string, execPath: string, script?: string): string | null;
