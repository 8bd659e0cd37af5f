// Types of server/read-body.mjs for the TypeScript tests that import it.
import type { IncomingMessage } from "node:http";
export declare function readAtMost(req: IncomingMessage, max: number): Promise<Buffer | null | undefined>;
