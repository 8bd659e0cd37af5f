// Types of server/malloc-trim.mjs for the TypeScript tests that import it.
export declare const DEFAULT_TRIM_INTERVAL_MS: number;
export declare function parseTrimInterval(raw: string | undefined): number;
export declare function loadMallocTrim(): { trim: (() => number) | null; reason: string | null };
export declare function startMallocTrim(intervalMs: number, options?: { onUnavailable?: (reason: string | null) => void }): { stop: () => void; trim: () => number } | null;
