// Types of server/guards.mjs for the TypeScript tests that import it.
import type { BlockList } from "node:net";

export declare const MAX_BODY_BYTES: number;
export declare const ALLOWED_METHODS: string[];
export declare const GUARD_ERRORS: Record<string, { code: number; status: number; title: string }>;
export declare const FORWARDING_HEADERS: string[];
export declare function parseTrustedProxies(value: string | undefined): BlockList | null;
export declare function normalizeAddress(address: string | undefined): string;
export interface TClient {
  address: string;
  viaTrustedProxy: boolean;
}
export declare function resolveClient(peerAddress: string | undefined, headers: Record<string, string | string[] | undefined>, trusted: BlockList | null): TClient;
export declare function sanitizeForwardingHeaders(headers: Record<string, string | string[] | undefined>, client: TClient, socketEncrypted: boolean): void;
export declare function isWellFormedTarget(url: string | undefined): boolean;
export declare function isValidHost(host: string | undefined): boolean;
export declare function isJsonRoute(url: string | undefined): boolean;
export declare function incomingRequestId(value: string | string[] | undefined): string | undefined;
export declare function redactPath(path: string): string;
export declare function withoutTrailingSlash(url: string | undefined): string;
export declare function hasEmptySegment(url: string | undefined): boolean;
export declare const ROUTER_HEADERS: string[];
export declare function removeRouterHeaders(headers: Record<string, string | string[] | undefined>, jsonRoute: boolean): void;
export declare function isPagesDataRoute(url: string | undefined): boolean;
