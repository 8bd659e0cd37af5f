import { expect, test } from "vitest";
import { startServer } from "@/test/helpers/server";

// A bad environment stops the server at start with a message naming the variable, instead of
// failing later on some request.
test("an invalid environment variable stops the server with a clear message", async () => {
  const attempt = startServer({ env: { API_RATE_LIMIT_PER_MINUTE: "lots", PUBLIC_URL: "not a url" } });
  const error = await attempt.then(() => null, (e: Error) => e);
  expect(error?.message).toMatch(/the server exited \(1\)[\s\S]*Invalid environment:/);
  expect(error?.message).toMatch(/API_RATE_LIMIT_PER_MINUTE: .*expected number/);
  expect(error?.message).toMatch(/PUBLIC_URL: Invalid URL/);
}, 60_000);

test("an invalid MEMORY_TRIM_INTERVAL_MS stops the server with a clear message", async () => {
  const error = await startServer({ env: { MEMORY_TRIM_INTERVAL_MS: "often" } }).then(() => null, (e: Error) => e);
  expect(error?.message).toMatch(/the server exited \(1\)[\s\S]*MEMORY_TRIM_INTERVAL_MS: expected a whole number of milliseconds/);
}, 60_000);

test("an invalid IDLE_COLLECT_AFTER_MS stops the server with a clear message", async () => {
  const error = await startServer({ env: { IDLE_COLLECT_AFTER_MS: "soon" } }).then(() => null, (e: Error) => e);
  expect(error?.message).toMatch(/the server exited \(1\)[\s\S]*IDLE_COLLECT_AFTER_MS: expected a whole number of milliseconds/);
}, 60_000);

test("an invalid API_LANE stops the server with a clear message", async () => {
  const error = await startServer({ env: { API_LANE: "fast" } }).then(() => null, (e: Error) => e);
  expect(error?.message).toMatch(/the server exited \(1\)[\s\S]*API_LANE must be "on" or "off", not "fast"/);
}, 60_000);
