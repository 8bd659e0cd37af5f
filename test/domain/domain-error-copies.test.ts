// The server bundles may load lib/domain/errors.ts more than once, and an object kept on globalThis
// (the rate limiter) throws with the copy that made it: a DomainError of another copy must still be
// answered as itself (a 429, say), not as a 500.
import { expect, test, vi } from "vitest";

test("a DomainError made by another copy of the module is a DomainError, and the API answers it as one", async () => {
  const { DomainError } = await import("@/lib/domain/errors");
  const { toApiError } = await import("@/lib/api/errors");
  vi.resetModules();
  const other = await import("@/lib/domain/errors");
  expect(other.DomainError).not.toBe(DomainError);
  const refused = new other.DomainError("rate_limited", "Too many requests.", { headers: { "Retry-After": "7" } });
  expect(refused instanceof DomainError).toBe(true);
  expect(toApiError(refused)).toMatchObject({ status: 429, headers: { "Retry-After": "7" } });
  expect(new Error("x") instanceof DomainError).toBe(false);
  expect({ name: "DomainError" } instanceof DomainError).toBe(false);
});
