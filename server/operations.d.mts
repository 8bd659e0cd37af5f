// Types of server/operations.mjs for the TypeScript tests that import it.
import type { IncomingMessage } from "node:http";
export declare const CLIENT_CLOSED: number;
export declare function metricsAllowed(req: Pick<IncomingMessage, "headers" | "socket">, token: string | undefined): boolean;
export declare function routeLabels(distDir: string): (url: string) => string;
export declare function operationOf(method: string | undefined, url: string): "/livez" | "/readyz" | "/metrics" | null;
