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

test("the server's own settings are in the same schema: a bad API_LANE, TRUSTED_PROXIES or PORT stops it, naming each", async () => {
  const error = await startServer({ env: { API_LANE: "fast", TRUSTED_PROXIES: "everyone", PORT: "http" } }).then(() => null, (e: Error) => e);
  expect(error?.message).toMatch(/the server exited \(1\)[\s\S]*Invalid environment:/);
  expect(error?.message).toMatch(/API_LANE: Invalid option: expected one of "on"\|"off"/);
  expect(error?.message).toMatch(/TRUSTED_PROXIES: "everyone" is not an IP address/);
  expect(error?.message).toMatch(/PORT: .*expected number/);
}, 60_000);
