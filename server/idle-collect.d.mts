// Types of server/idle-collect.mjs for the TypeScript that imports it (tests, bench/config.ts, bench/processes.ts).
export declare const DEFAULT_IDLE_COLLECT_AFTER_MS: number;
export declare const IDLE_COLLECTED_MSG: string;
export declare function parseIdleCollectAfter(raw: string | undefined): number;
export declare function fullCollection(): (() => void) | null;
export declare function startIdleCollector(
  idleMs: number,
  options?: {
    collect?: () => void;
    after?: (done: { before: NodeJS.MemoryUsage; elapsedMs: number }) => void;
    onError?: (error: unknown) => void;
    now?: () => number;
  },
): { requestStarted: () => void; requestEnded: () => void; stop: () => void } | null;
