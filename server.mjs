#!/usr/bin/env node
// The app's HTTP server: Next.js behind a small front door that every request passes first
// (`npm start`, `npm run dev`). It answers, in the API's error shape and with the usual headers,
// what must never reach Next: methods the app does not serve (405), request targets whose
// percent-escapes do not decode (400), and bodies over 1 MiB (413, by Content-Length before a byte
// is read, and while a chunked body streams in). It also decides who the client is: the socket's
// address, unless an operator lists the proxies in front (TRUSTED_PROXIES). See docs/security.md.
//
//   node server.mjs [--dev] [-p PORT] [-H HOSTNAME]     (on Node.js 24: `npm start` and `npm run dev` use it)
import "./server/node-version.mjs"; // first: stops here, saying why, on a Node older than 24
import { randomUUID } from "node:crypto";
import http, { IncomingMessage } from "node:http";
import path from "node:path";
import next from "next";
import { readAtMost } from "./server/read-body.mjs";
import { createApiLane } from "./server/api-lane.mjs";
import { answerMetrics, answerProbe, createMetrics, metricsAllowed, operationOf } from "./server/operations.mjs";

const args = process.argv.slice(2);
const dev = args.includes("--dev");
process.env.NODE_ENV ??= dev ? "development" : "production";

// TypeScript from lib/, loaded by Node's type stripping (after the version check: an older Node
// cannot load it): the rules and constants the app shares with this server, the environment's one
// schema, the one logger (made as it is imported: only once NODE_ENV is settled, above; it must
// never become a static import, which would run before that line).
const {
  ALLOWED_METHODS,
  GUARD_ERRORS,
  maxBodyBytes,
  hasEmptySegment,
  isGlobalErrorPage,
  isPagesDataRoute,
  removeRouterHeaders,
  incomingRequestId,
  isJsonRoute,
  isWellFormedTarget,
  redactPath,
  withoutTrailingSlash,
  resolveClient,
  sanitizeForwardingHeaders,
} = await import("./lib/http/front-door.ts");
const { isValidHost, linkOrigin } = await import("./lib/http/origin.ts");
const { refusalSecurityHeaders } = await import("./lib/http/security-headers.ts");
const { env } = await import("./lib/env.ts");
const { logger } = await import("./lib/logger.ts");

let settings;
try {
  settings = env();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const port = Number(option(["-p", "--port"]) ?? settings.PORT);
const hostname = option(["-H", "--hostname"]) ?? settings.HOSTNAME;
const trustedProxies = settings.TRUSTED_PROXIES;

// Lets the app warn when it is served some other way (plain `next start` has none of the above).
globalThis.__contractsFrontDoor = true;

const app = next({ dev, dir: process.cwd(), hostname: hostname ?? "localhost", port });
await app.prepare();
const handle = app.getRequestHandler();
// `/v1` requests go straight to their route handlers (server/api-lane.mjs); not in development.
const lane = dev || settings.API_LANE === "off" ? null : createApiLane({ distDir: path.resolve(settings.NEXT_DIST_DIR), hostname: hostname ?? "localhost", port });
if (lane?.reason) logger.warn({ reason: lane.reason }, "api lane off");
else if (lane) logger.info({ routes: lane.routes }, "api lane on");
// /metrics (server/operations.mjs): every request is counted once, by its route's pattern, when its
// answer is done: the lane labels what it takes; what Next serves is labelled from the build's routes.
const metrics = createMetrics({ distDir: path.resolve(settings.NEXT_DIST_DIR), methods: ALLOWED_METHODS, logger });
const serveNext = (req, res) => {
  res.routeLabel = metrics.routeOf(req.url);
  return handle(req, res);
};
const serveApp = lane?.handle ? (req, res) => lane.handle(req, res) || serveNext(req, res) : serveNext;
/** From SIGTERM/SIGINT on: no new connections, each answer closes its connection (see the signal handler). */
let shuttingDown = false;

// Upgrades (WebSockets, `Upgrade: h2c`) are taken only by the development server, for its hot
// reload; in production such a request is an ordinary request, through every check below (the app
// serves no WebSocket, and Next would leave an upgraded connection open with no time-out).
// Each connection's requests under way (answer not yet finished): at SIGTERM one with none, still
// sending a request's head or idle, has nothing to finish and is closed then.
const requestsUnderWay = new Map();
const server = http.createServer({ shouldUpgradeCallback: () => dev }, (req, res) => {
  const socket = req.socket;
  requestsUnderWay.set(socket, (requestsUnderWay.get(socket) ?? 0) + 1);
  res.once("close", () => requestsUnderWay.set(socket, requestsUnderWay.get(socket) - 1));
  metrics.track(res);
  // A request that arrives on a connection opened before the shutdown is answered, and its connection closed.
  if (shuttingDown) res.setHeader("Connection", "close");
  serve(req, res).catch((error) => {
    logger.error({ error: String(error?.stack ?? error) }, "request failed in the front door");
    if (!res.headersSent) {
      res.writeHead(500, { "Content-Type": "text/plain", "Cache-Control": "no-store", Connection: "close" });
      res.end("Internal Server Error");
    } else {
      res.destroy();
    }
  });
});
server.on("connection", (socket) => {
  requestsUnderWay.set(socket, 0);
  socket.once("close", () => requestsUnderWay.delete(socket));
});
// WebSocket upgrades (the development server's hot reload) go to Next, for well-formed paths only.
const upgrade = app.getUpgradeHandler();
server.on("upgrade", (req, socket, head) => {
  if (!isWellFormedTarget(req.url) || (req.headers.host !== undefined && !isValidHost(req.headers.host))) return void socket.destroy();
  Promise.resolve(upgrade(req, socket, head)).catch(() => socket.destroy());
});
// What Node's parser refuses before there is a request: a request line and headers over 16 KiB (a
// long query string, large cookies) get a 431 in the API's error shape, like every other refusal;
// anything else that is not HTTP gets the bare answer Node would send. A connection is answered
// once, and cut a little later (cutting at once could reset it before the client reads the answer).
const answeredClientErrors = new WeakSet();
server.on("clientError", (error, socket) => {
  if (answeredClientErrors.has(socket)) return;
  answeredClientErrors.add(socket);
  // A response still in progress on this connection (pipelining) would be paired with ours.
  if (error.code === "ECONNRESET" || !socket.writable || socket._httpMessage) return void socket.destroy();
  setTimeout(() => socket.destroy(), 2_000).unref();
  if (error.code !== "HPE_HEADER_OVERFLOW") {
    const status = { ERR_HTTP_REQUEST_TIMEOUT: "408 Request Timeout", HPE_CHUNK_EXTENSIONS_OVERFLOW: "413 Payload Too Large" }[error.code] ?? "400 Bad Request";
    return void socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
  }
  const started = performance.now();
  const requestId = randomUUID();
  // `rawPacket` is the chunk being parsed when the limit was passed: when it holds the request line
  // and Host (a request that arrived in one piece), a page gets the HTML answer and the error's
  // link the host; otherwise the answer is JSON, linked to PUBLIC_URL or localhost.
  const raw = error.rawPacket?.toString("latin1") ?? "";
  const requestLine = /^([A-Z]+) (\S+) HTTP\//.exec(raw);
  const target = requestLine?.[2] ?? "/v1";
  const host = /\r\nhost:[ \t]*([^\r\n]*)/i.exec(raw)?.[1];
  const { code, status, title } = GUARD_ERRORS.headers_too_large;
  const detail = "The request line and headers together are larger than 16 KiB.";
  const json = isJsonRoute(target);
  const body = json
    ? JSON.stringify({ status, title, detail, error_code: code, type: `${publicOrigin({ headers: { host }, socket })}/v1/error_codes/${code}`, request_id: requestId })
    : errorPage(status, title, detail, requestId);
  const headers = {
    ...refusalSecurityHeaders(json),
    "Cache-Control": "no-store",
    "X-Request-Id": requestId,
    "Content-Type": json ? "application/json" : "text/html; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    Connection: "close",
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  socket.end(`HTTP/1.1 ${status} ${title}\r\n${head}\r\n${requestLine?.[1] === "HEAD" ? "" : body}`);
  logger.info({ route: "(front door)", path: safePath(target), status, duration_ms: Math.round((performance.now() - started) * 10) / 10, request_id: requestId, error_code: code }, "request");
  metrics.observeRefused(status, (performance.now() - started) / 1000);
});
// A client must finish sending its headers, and its whole request, in bounded time.
server.headersTimeout = 20_000;
server.requestTimeout = 60_000;

// A port taken or not allowed: nothing here can serve, so say so and exit (Next would keep the
// process alive, holding the embedded database without listening). Only until it listens: a later
// error (an accept failing under load) must not end a serving process.
const cannotListen = (error) => {
  logger.error({ err: error }, `cannot listen on ${hostname ?? "every address"}, port ${port}: ${error.message}`);
  process.exit(1);
};
server.once("error", cannotListen);
server.listen(port, hostname, () => {
  server.off("error", cannotListen);
  const where = hostname && hostname !== "0.0.0.0" && hostname !== "::" ? hostname : "localhost";
  logger.info(`ready on http://${where}:${port}${dev ? " (development)" : ""}`);
});

/** SIGTERM: requests in flight and the jobs' runs under way get this long; what is still open then is cut (exit 1). */
const SHUTDOWN_LIMIT_MS = 25_000;
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => shutDown(signal));

/**
 * Stops taking requests and exits once nothing is lost: the listening socket closes (new
 * connections are refused), idle keep-alive connections and those still sending a request's head are
 * closed and busy ones once their answer is sent, while the app's shutdown hooks (lib/shutdown.ts: the jobs stop taking work and finish the
 * runs under way; the mail deliverer hands back what it claimed and has not sent) run alongside.
 * Then exit 0 (the exit hooks remove the embedded database's socket folder). A second signal, or
 * SHUTDOWN_LIMIT_MS, cuts what is left and exits 1.
 */
function shutDown(signal) {
  if (shuttingDown) return void exitNow(`second ${signal}`);
  shuttingDown = true;
  logger.info({ signal }, "shutting down: no new connections; finishing the requests in flight and the jobs' runs");
  const requestsDone = new Promise((resolve) => server.close(resolve));
  // Once the input that was ready with the signal has been read (the loop may have been busy when
  // the signal came): a request whose head had arrived has started by then and is finished.
  setImmediate(() => {
    server.closeIdleConnections();
    // A client still sending its request's head (slowly, or not at all) has made no request to finish.
    for (const [socket, underWay] of requestsUnderWay) if (underWay === 0) socket.destroy();
  });
  // Development: the hot reload's WebSockets never end by themselves, and nothing there needs finishing.
  if (dev) server.closeAllConnections();
  // A connection whose answer went out with keep-alive (headers sent before the shutdown) turns idle after it.
  setInterval(() => server.closeIdleConnections(), 50).unref();
  const hooks = [...(globalThis.__contractsShutdownHooks ?? [])];
  const hooksDone = Promise.allSettled(hooks.map((hook) => Promise.resolve().then(hook)));
  setTimeout(() => exitNow(`still busy after ${SHUTDOWN_LIMIT_MS / 1000} s`), SHUTDOWN_LIMIT_MS).unref();
  Promise.all([requestsDone, hooksDone]).then(() => {
    logger.info("shut down: every request answered, the jobs stopped");
    process.exit(0);
  });
}

function exitNow(why) {
  logger.warn({ why }, "shutting down now: open connections are cut");
  server.closeAllConnections();
  process.exit(1);
}

async function serve(req, res) {
  const started = performance.now();
  const requestId = incomingRequestId(req.headers["x-request-id"]) ?? randomUUID();
  // The app reuses this id in its own log line and answer.
  req.headers["x-request-id"] = requestId;

  if (!ALLOWED_METHODS.includes(req.method)) {
    return refuse(req, res, requestId, started, "method_not_allowed", `${req.method} is not supported.`, {
      Allow: ALLOWED_METHODS.join(", "),
    });
  }
  if (req.headers.host !== undefined && !isValidHost(req.headers.host)) {
    return refuse(req, res, requestId, started, "invalid_host", "The Host header is not a valid host name or address with an optional port.");
  }
  if (!isWellFormedTarget(req.url)) {
    return refuse(req, res, requestId, started, "malformed_path", "The request path is not a valid, percent-encoded path.");
  }

  if (isPagesDataRoute(req.url) || isGlobalErrorPage(req.url)) {
    return refuse(req, res, requestId, started, "route_not_found", "No endpoint has this path.");
  }

  // Probes and metrics (server/operations.mjs), before the forwarding headers are rewritten: /metrics
  // is read only by whom metricsAllowed admits; for anyone else it does not exist (Next's 404).
  const operation = operationOf(req.method, req.url);
  if (operation !== null) {
    res.routeLabel = operation;
    const headers = { ...refusalSecurityHeaders(true), "X-Request-Id": requestId };
    if (operation !== "/metrics") return answerProbe(operation, req, res, { shuttingDown, headers });
    if (metricsAllowed(req, settings.METRICS_TOKEN)) return answerMetrics(metrics, req, res, { headers });
  }

  req.url = withoutTrailingSlash(req.url);
  const json = isJsonRoute(req.url);
  removeRouterHeaders(req.headers, json);
  if (json && hasEmptySegment(req.url)) {
    return refuse(req, res, requestId, started, "malformed_path", "The request path has an empty segment (`//`): an id is missing.");
  }
  const client = resolveClient(req.socket.remoteAddress, req.headers, trustedProxies);
  sanitizeForwardingHeaders(req.headers, client, Boolean(req.socket.encrypted));

  const declared = req.headers["content-length"];
  const maxBody = maxBodyBytes(req.method, req.url);
  if (declared !== undefined && Number(declared) > maxBody) {
    return refuse(req, res, requestId, started, "body_too_large", `The body is larger than ${maxBody} bytes.`);
  }
  if (declared === undefined && req.headers["transfer-encoding"] !== undefined) {
    // A chunked body has no length to check up front: read it here, at most 1 MiB (an attachment
    // upload: UPLOAD_MAX_BODY_BYTES), and hand Next the same request with the body in hand (so no
    // route can ever buffer more).
    const body = await readAtMost(req, maxBody);
    if (body === null) {
      return refuse(req, res, requestId, started, "body_too_large", `The body is larger than ${maxBody} bytes.`);
    }
    if (body === undefined) return; // the client went away
    return serveApp(withBody(req, body), res);
  }
  return serveApp(req, res);
}

/** A request like `req` (same socket, method, target and headers) whose body is `body`. */
function withBody(req, body) {
  const copy = new IncomingMessage(req.socket);
  copy.method = req.method;
  copy.url = req.url;
  copy.httpVersion = req.httpVersion;
  copy.httpVersionMajor = req.httpVersionMajor;
  copy.httpVersionMinor = req.httpVersionMinor;
  const headers = { ...req.headers, "content-length": String(body.length) };
  delete headers["transfer-encoding"];
  copy.headers = headers;
  copy.rawHeaders = Object.entries(headers).flatMap(([name, value]) => (Array.isArray(value) ? value.flatMap((v) => [name, v]) : [name, String(value)]));
  copy.complete = true;
  copy.push(body);
  copy.push(null);
  return copy;
}

function refuse(req, res, requestId, started, key, detail, extraHeaders = {}) {
  const { code, status, title } = GUARD_ERRORS[key];
  res.routeLabel = "(front door)";
  const json = isJsonRoute(req.url);
  const origin = publicOrigin(req);
  const headers = {
    ...refusalSecurityHeaders(json),
    ...extraHeaders,
    "Cache-Control": "no-store",
    "X-Request-Id": requestId,
    // The body may still be arriving (or be huge): do not wait for it on this connection.
    Connection: "close",
  };
  let body;
  if (json) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify({ status, title, detail, error_code: code, type: `${origin}/v1/error_codes/${code}`, request_id: requestId });
  } else {
    headers["Content-Type"] = "text/html; charset=utf-8";
    body = errorPage(status, title, detail, requestId);
  }
  res.writeHead(status, headers);
  res.end(req.method === "HEAD" ? undefined : body);
  lingeringClose(req, res);
  logger.info(
    {
      method: req.method,
      route: "(front door)",
      path: safePath(req.url),
      status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      request_id: requestId,
      error_code: code,
    },
    "request",
  );
}

/**
 * Closes the connection without losing the answer: closing at once while the client is still
 * sending makes its kernel see a reset and drop our 413 unread. So: finish our side, discard (never
 * buffer) what still arrives, and cut the connection after a short grace period.
 */
function lingeringClose(req, res) {
  const socket = req.socket;
  // Node's own close after a `Connection: close` answer (destroySoon) would reset at once.
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), 2_000).unref();
  };
  req.resume();
}

function errorPage(status, title, detail, requestId) {
  const escape = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${status} ${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#0f172a}</style></head>
<body><h1>${status} ${escape(title)}</h1><p>${escape(detail)}</p><p><a href="/contracts">Go to the contracts</a></p>
<p><small>Request id: ${escape(requestId)}</small></p></body></html>`;
}

/** The origin of a refusal's links: the front door's rule (`linkOrigin`), from the connection and Host only. */
function publicOrigin(req) {
  const proto = req.socket.encrypted ? "https" : "http";
  return linkOrigin(settings.PUBLIC_URL, proto, [req.headers.host], `${proto}://localhost`);
}

/** The path for the log, without the query and with anything odd escaped. */
function safePath(url) {
  const path = String(url ?? "").split("?", 1)[0] ?? "";
  return redactPath(path.slice(0, 512).replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c)));
}

function option(names) {
  const at = args.findIndex((a) => names.includes(a));
  return at === -1 ? undefined : args[at + 1];
}
