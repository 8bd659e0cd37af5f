// Types of server/api-lane.mjs for the TypeScript tests that import it.
import type { IncomingMessage, ServerResponse } from "node:http";
export declare const LANE_READS_WHOLE: number;
export declare const APP_VARY: string;
export declare function headerCondition(item: { type: string; key: string; value?: string }): ((headers: Record<string, string | string[] | undefined>) => boolean) | null;
export declare function parseApiLane(value: string | undefined): boolean;
export declare function createApiLane(options: { distDir: string; hostname?: string; port?: number }):
  | { reason: string }
  | {
      handle: (req: IncomingMessage, res: ServerResponse) => false | Promise<void>;
      match: (pathname: string) => { page: string; file: string; params: Record<string, string | string[]> } | null;
      routes: number;
    };
