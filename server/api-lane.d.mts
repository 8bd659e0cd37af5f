// Types of server/api-lane.mjs for the TypeScript tests that import it.
import type { IncomingMessage, ServerResponse } from "node:http";
export declare const LANE_READS_WHOLE: number;
export declare function parseApiLane(value: string | undefined): boolean;
export declare function createApiLane(options: { distDir: string; hostname?: string; port?: number }):
  | { reason: string }
  | { handle: (req: IncomingMessage, res: ServerResponse) => false | Promise<void>; routes: number };
