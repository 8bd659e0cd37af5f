import { expect, test } from "vitest";
import { api } from "@/test/helpers/http";

test("GET /v1/ping answers 200 once the database is ready, without credentials", async () => {
  const res = await api("/v1/ping", { token: null });
  expect(res.status).toBe(200);
  expect(res.json).toEqual({ status: "ok" });
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(res.headers.get("x-request-id")).toBeTruthy();
});

test("a wrong method is a 405 in the error shape, with Allow", async () => {
  const res = await api("/v1/ping", { method: "POST", body: {} });
  expect(res.status).toBe(405);
  expect(res.headers.get("allow")).toBe("GET");
  expect(res.json).toMatchObject({ status: 405, error_code: 4050000, request_id: res.headers.get("x-request-id") });
});

test("an unknown /v1 path is a 404 in the error shape", async () => {
  const res = await api("/v1/no-such-thing/42");
  expect(res.status).toBe(404);
  expect(res.json.status).toBe(404);
  expect(String(res.json.error_code)).toMatch(/^404/);
  expect(res.json.type).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/error_codes\/404\d{4}$/);
});
