import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";

import { DELIVERY_TIMEOUT_MS } from "@/lib/domain/webhooks";

import type { TResolvedAddress } from "./check-callback-url";

export interface TSendResult {
  /** The receiver's status; null when none came (refused, timed out, reset). */
  statusCode: number | null;
  durationMs: number;
  /** Empty on a 2xx. */
  error: string;
}

/**
 * One POST of a webhook to `url`, connecting to `address` (already checked; no second DNS lookup),
 * with TLS checked against the URL's host name. Redirects are not followed (a 3xx is a failure);
 * the whole attempt, body included, has DELIVERY_TIMEOUT_MS; at most 4 KiB of the answer is read.
 */
export function sendWebhook({ url, address, headers, body, timeoutMs = DELIVERY_TIMEOUT_MS }: { url: URL; address: TResolvedAddress; headers: Record<string, string>; body: string; timeoutMs?: number }): Promise<TSendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<TSendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const req = client.request(
      url,
      {
        method: "POST",
        lookup: pinned,
        agent: false,
        headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), "user-agent": "contracts-admin-webhooks/1" },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let seen = 0;
        res.on("data", (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > 4096) res.destroy();
        });
        const done = () =>
          finish({
            statusCode: status,
            error: status >= 200 && status < 300 ? "" : status >= 300 && status < 400 ? `answered ${status} (redirects are not followed)` : `answered ${status}`,
          });
        res.on("end", done);
        res.on("close", done);
        res.on("error", done);
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    req.on("error", (error) => finish({ statusCode: null, error: error.message || String(error) }));
    req.end(body);
  });
}
