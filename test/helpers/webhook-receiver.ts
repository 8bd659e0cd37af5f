// A webhook receiver for tests: node:http on 127.0.0.1 that checks every delivery's signature with
// the Standard Webhooks library (Webhook.verify) and records what arrived. `respond` decides each
// answer (default 204). Stops itself when the test calls stop().
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface TReceived {
  path: string;
  id: string;
  timestamp: string;
  body: { id: string; type: string; created_time: string; data: Record<string, unknown> };
  /** Webhook.verify accepted the signature with the subscription's secret. */
  verified: boolean;
  status: number;
}

export interface TReceiver {
  url: (path?: string) => string;
  received: TReceived[];
  /** The secret to verify a path's deliveries with (the subscription's, once created). */
  secrets: Map<string, string>;
  respond: (r: Omit<TReceived, "status">) => number | Promise<number>;
  waitFor: (predicate: (all: TReceived[]) => boolean, timeoutMs?: number) => Promise<TReceived[]>;
  stop: () => Promise<void>;
}

export async function startWebhookReceiver(): Promise<TReceiver> {
  const receiver: TReceiver = {
    url: () => "",
    received: [],
    secrets: new Map(),
    respond: () => 204,
    waitFor: async (predicate, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(receiver.received)) {
        if (Date.now() > deadline) throw new Error(`receiver: not seen in time; got ${JSON.stringify(receiver.received.map((r) => [r.path, r.id, r.body.type, r.status]))}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return receiver.received;
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const path = req.url ?? "/";
      const headers = { "webhook-id": String(req.headers["webhook-id"] ?? ""), "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""), "webhook-signature": String(req.headers["webhook-signature"] ?? "") };
      let verified = false;
      const secret = receiver.secrets.get(path);
      if (secret) {
        try {
          new Webhook(secret).verify(raw, headers);
          verified = true;
        } catch {
          verified = false;
        }
      }
      let body: TReceived["body"];
      try {
        body = JSON.parse(raw);
      } catch {
        body = { id: "", type: "", created_time: "", data: {} };
      }
      const entry = { path, id: headers["webhook-id"], timestamp: headers["webhook-timestamp"], body, verified };
      const status = await receiver.respond(entry);
      receiver.received.push({ ...entry, status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  receiver.url = (path = "/") => `http://127.0.0.1:${port}${path}`;
  return receiver;
}
