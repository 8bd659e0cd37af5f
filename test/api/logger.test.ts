import { spawnSync } from "node:child_process";
import { Session } from "node:inspector/promises";
import { afterEach, beforeEach, expect, it, vi, type MockInstance } from "vitest";
import { logger, type TRequestLogFields } from "@/lib/logger";

// lib/logger.ts: pino itself (called with pino's arguments, fields first), writing JSON lines to
// stdout outside development, one line per call.
let stdout: MockInstance;
beforeEach(() => {
  stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
});
afterEach(() => stdout.mockRestore());

function lines(): Record<string, unknown>[] {
  return stdout.mock.calls.flatMap(([chunk]) => String(chunk).split("\n").filter(Boolean)).map((line) => JSON.parse(line) as Record<string, unknown>);
}

it("writes one JSON line per call: the level as a word, an ISO time, the fields and the message", () => {
  logger.warn({ nested: { a: [1, "two"] }, gone: undefined, at: new Date(0) }, 'a "quoted" message – with an en dash\n');
  const [line, ...rest] = lines();
  expect(rest).toEqual([]);
  expect(line).toEqual({ level: "warn", time: expect.any(String), msg: 'a "quoted" message – with an en dash\n', nested: { a: [1, "two"] }, at: "1970-01-01T00:00:00.000Z" });
  expect(line!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect(Math.abs(Date.parse(line!.time as string) - Date.now())).toBeLessThan(60_000);
  // No pid or hostname on every line.
  expect(Object.keys(line!)).not.toContain("pid");
});

it("writes a request's line with every field of the request_id contract", () => {
  const fields: TRequestLogFields = { method: "PUT", route: "(method not allowed)", path: '/v1/"odd"\\path–é', status: 405, duration_ms: 0, request_id: "a.b:c@d", user_id: 3, api_token_id: null };
  logger.info(fields, "request");
  expect(lines()).toEqual([{ level: "info", time: expect.any(String), msg: "request", ...fields }]);
});

it("a line runs pino's code only, no function of lib/logger.ts (not on a request's path)", async () => {
  const fields: TRequestLogFields = { method: "GET", route: "/v1/ping", path: "/v1/ping", status: 200, duration_ms: 1.5, request_id: "r", user_id: null, api_token_id: 7 };
  const log = logger; // read before measuring: the test runner's export getter is not the logger's code
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
    await session.post("Profiler.takePreciseCoverage"); // resets the counts
    log.info(fields, "request");
    log.warn({ error: "e" }, "warned");
    const { result } = await session.post("Profiler.takePreciseCoverage");
    // The functions of `file` that ran (offset 0 is a module's own body, run at import, not now).
    const ran = (file: string) =>
      result
        .filter((script) => script.url.endsWith(file))
        .flatMap((script) => script.functions.filter((f) => f.ranges[0]!.count > 0 && f.ranges[0]!.startOffset > 0))
        .map((f) => f.functionName || `(anonymous at ${f.ranges[0]!.startOffset})`);
    expect(ran("/node_modules/pino/lib/tools.js").length, "the measure sees pino write").toBeGreaterThan(0);
    expect(ran("/lib/logger.ts")).toEqual([]);
  } finally {
    await session.post("Profiler.stopPreciseCoverage");
    session.disconnect();
  }
  expect(lines().map((line) => line.msg)).toEqual(["request", "warned"]);
});

it("keeps the line when the fields cannot be written as plain JSON", () => {
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  logger.error({ circular }, "circular");
  logger.error({ n: 10n }, "bigint");
  expect(lines()).toEqual([
    { level: "error", time: expect.any(String), msg: "circular", circular: { self: "[Circular]" } },
    { level: "error", time: expect.any(String), msg: "bigint", n: 10 },
  ]);
});

/** What a fresh process writes through the logger with `env` (the level is read once, as the logger is imported). */
function run(env: Record<string, string>, code: string): string {
  const script = `const { logger, logNotice } = await import("./lib/logger.ts"); ${code}`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, ...env }, encoding: "utf8" });
  expect(result.stderr).toBe("");
  return result.stdout;
}

it("LOG_LEVEL: lines below it are not written; silent writes nothing", () => {
  const code = `logger.debug("d"); logger.info("i"); logger.warn("w"); logger.error("e");`;
  const msgs = (out: string) => out.split("\n").filter(Boolean).map((line) => (JSON.parse(line) as { msg: string }).msg);
  expect(msgs(run({ NODE_ENV: "production", LOG_LEVEL: "warn" }, code))).toEqual(["w", "e"]);
  expect(msgs(run({ NODE_ENV: "production", LOG_LEVEL: "debug" }, code))).toEqual(["d", "i", "w", "e"]);
  expect(run({ NODE_ENV: "production", LOG_LEVEL: "silent" }, code)).toBe("");
});

it("a notice (the demo's credentials, shown once) is written whatever the level, short of silent", () => {
  const code = `logNotice("Demo data created", { api_token: "t" });`;
  expect(JSON.parse(run({ NODE_ENV: "production", LOG_LEVEL: "error" }, code))).toMatchObject({ level: "warn", msg: "Demo data created", api_token: "t" });
  expect(run({ NODE_ENV: "production", LOG_LEVEL: "silent" }, code)).toBe("");
});

it("in development the lines are pretty-printed for a person, not JSON", () => {
  const out = run({ NODE_ENV: "development", LOG_LEVEL: "info" }, `logNotice("Demo data created", { admin_password: "p4ss" });`);
  expect(out).toMatch(/WARN.*Demo data created\n\s+admin_password: "p4ss"/);
  expect(() => JSON.parse(out)).toThrow();
});
