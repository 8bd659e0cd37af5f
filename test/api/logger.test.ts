import { afterEach, beforeEach, expect, it, vi, type MockInstance } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { FLUSH_AFTER_MS, flushLog, logger, logRequest, type TRequestLogFields } from "@/lib/logger";

// The logger writes its line's head itself and appends the fields' JSON (lib/logger.ts): the text
// must be exactly what stringifying `{ level, time, msg, ...fields }` gives.
let stdout: MockInstance;
beforeEach(() => {
  stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
});
afterEach(() => stdout.mockRestore());

function lines(): string[] {
  flushLog();
  return stdout.mock.calls.flatMap(([chunk]) => String(chunk).split("\n").filter(Boolean));
}

it("writes each line as stringifying level, time, msg and the fields would", () => {
  const cases: [string, Record<string, unknown>][] = [
    ["request", { method: "GET", route: "/v1/contracts/{contract_id}", status: 200, duration_ms: 1.5, request_id: "r-1", user_id: null, api_token_id: 7 }],
    ["no fields", {}],
    ['a "quoted" message – with an en dash\n', { nested: { a: [1, "two", { three: true }] }, gone: undefined, emoji: "😀", control: "\u0001" }],
    ["fields that name the head's keys", { level: "spoofed", msg: "spoofed", time: "spoofed", x: 1 }],
    ["a date", { at: new Date(0) }],
  ];
  for (const [msg, fields] of cases) logger.warn(msg, fields);
  const written = lines();
  expect(written).toHaveLength(cases.length);
  written.forEach((line, i) => {
    const [msg, fields] = cases[i]!;
    const time = (JSON.parse(line) as { time: string }).time;
    if (!("time" in fields)) {
      expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Math.abs(Date.parse(time) - Date.now())).toBeLessThan(60_000);
    }
    expect(line).toBe(JSON.stringify({ level: "warn", time, msg, ...fields }));
  });
});

it("writes a request's line as logger.info would", () => {
  const cases: TRequestLogFields[] = [
    { method: "GET", route: "/v1/contracts/{contract_id}", path: "/v1/contracts/12", status: 200, duration_ms: 1.5, request_id: "r-1", user_id: null, api_token_id: 7 },
    { method: "PUT", route: "(method not allowed)", path: '/v1/"odd"\\path–é', status: 405, duration_ms: 0, request_id: "a.b:c@d", user_id: 3, api_token_id: null },
    { method: "DELETE", route: "/v1/x", path: "/v1/x", status: 503, duration_ms: 1234.5, request_id: "r\u0001", user_id: 0, api_token_id: 0 },
    { method: "GET", route: "/v1/x", path: "/v1/x", status: 200, duration_ms: Number.NaN, request_id: "r", user_id: Number.POSITIVE_INFINITY, api_token_id: -0 },
  ];
  for (const fields of cases) {
    logRequest(fields);
    logger.info("request", { ...fields });
  }
  const written = lines();
  expect(written).toHaveLength(cases.length * 2);
  for (let i = 0; i < written.length; i += 2) {
    const time = (JSON.parse(written[i]!) as { time: string }).time;
    expect(written[i]).toBe(JSON.stringify({ level: "info", time, msg: "request", ...cases[i / 2] }));
    // The same text as the generic logger's, up to the time it read.
    expect(written[i]!.replace(time, "")).toBe(written[i + 1]!.replace((JSON.parse(written[i + 1]!) as { time: string }).time, ""));
  }
});

it("keeps the line when the fields cannot be written", () => {
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  logger.error("circular", { circular });
  logger.error("bigint", { n: 10n });
  const written = lines().map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(written).toEqual([
    { level: "error", time: expect.any(String), msg: "circular", unserializable_fields: true },
    { level: "error", time: expect.any(String), msg: "bigint", unserializable_fields: true },
  ]);
});

it("writes the lines of a few milliseconds at once, across turns of the event loop, and soon", async () => {
  flushLog();
  stdout.mockClear();
  logger.info("first", { n: 1 });
  await new Promise((resolve) => setImmediate(resolve));
  logger.info("second", { n: 2 });
  expect(stdout).not.toHaveBeenCalled();
  await sleep(FLUSH_AFTER_MS * 5);
  expect(stdout).toHaveBeenCalledTimes(1);
  expect(String(stdout.mock.calls[0]![0]).split("\n").filter(Boolean).map((line) => JSON.parse(line).msg)).toEqual(["first", "second"]);
});
