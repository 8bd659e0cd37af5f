import { describe, expect, test } from "vitest";
import { afterSignInPath, safeNextPath, signInPath } from "@/lib/auth/require-session";

// The sign-in page sends a user on to `next`; it must never be another site (open redirect).
// What counts is where a browser would go with the returned value, so each case is checked by
// resolving the answer against this app's origin.
const APP = "https://contracts.example.com";

describe("safeNextPath", () => {
  test.each([
    "//evil.example/phish",
    "/.//evil.example/phish",
    "/x/..//evil.example",
    "/././/evil.example",
    "/%2e//evil.example",
    "/%2e%2e//evil.example",
    "/\\evil.example",
    "/\\/evil.example",
    "\\\\evil.example",
    "https://evil.example/",
    "http:evil.example",
    "javascript:alert(1)",
    "/\tevil",
    "/\n/evil.example",
    "evil.example",
    "",
  ])("refuses %j", (next) => {
    expect(safeNextPath(next)).toBeNull();
  });

  test.each([
    ["/contracts", "/contracts"],
    ["/contracts?page=2&sort=-name", "/contracts?page=2&sort=-name"],
    ["/contracts/12#parties", "/contracts/12#parties"],
    ["/a/../contracts", "/contracts"],
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
  ])("keeps %j as %j, a path of this app", (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
    expect(new URL(expected, APP).origin).toBe(APP);
  });

  test("whatever it returns stays on this origin in a browser's URL parser", () => {
    const tricky = ["/.//x", "/..//x", "/a/..//x", "/./x", "/%2e%2e/%2e%2e//x", "/;//x", "/?//x", "/#//x", "/ //x"];
    for (const next of tricky) {
      const safe = safeNextPath(next);
      if (safe !== null) expect({ next, origin: new URL(safe, APP).origin }).toEqual({ next, origin: APP });
    }
  });
});

describe("after sign-in", () => {
  test("an unsafe or missing next goes to the dashboard, and never back to sign-in", () => {
    expect(afterSignInPath("/.//evil.example/phish")).toBe("/dashboard");
    expect(afterSignInPath(null)).toBe("/dashboard");
    expect(afterSignInPath("/sign-in?next=/x")).toBe("/dashboard");
    expect(afterSignInPath("/templates")).toBe("/templates");
  });
  test("the sign-in link carries only a safe next", () => {
    expect(signInPath("/.//evil.example")).toBe("/sign-in");
    expect(signInPath("/contracts?page=2")).toBe("/sign-in?next=%2Fcontracts%3Fpage%3D2");
  });
});
