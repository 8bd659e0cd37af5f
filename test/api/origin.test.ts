import { describe, expect, it } from "vitest";
import { absoluteUrl, requestOrigin } from "@/lib/http/origin";

const req = (headers: Record<string, string> = {}, url = "http://localhost:3000/v1/contracts") =>
  new Request(url, { headers });

describe("requestOrigin", () => {
  it("never returns an origin a URL cannot be built on (a port out of range)", () => {
    expect(requestOrigin(req({ host: "evil.example:99999" }), undefined)).toBe("http://localhost:3000");
    expect(() => absoluteUrl(requestOrigin(req({ host: "evil.example:99999" }), undefined), "/v1/x")).not.toThrow();
  });

  it("uses PUBLIC_URL when set, whatever the headers say", () => {
    const r = req({ host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" });
    expect(requestOrigin(r, "https://contracts.example.com")).toBe("https://contracts.example.com");
    expect(requestOrigin(r, "https://contracts.example.com:8443/some/path/")).toBe("https://contracts.example.com:8443");
  });

  it("uses X-Forwarded-Proto and X-Forwarded-Host from a proxy (first value of a list)", () => {
    const r = req({ host: "10.0.0.5:3000", "x-forwarded-host": "api.example.com, proxy.internal", "x-forwarded-proto": "https,http" });
    expect(requestOrigin(r, undefined)).toBe("https://api.example.com");
  });

  it("combines a forwarded proto with the Host header", () => {
    expect(requestOrigin(req({ host: "app.example.com", "x-forwarded-proto": "https" }), undefined)).toBe(
      "https://app.example.com",
    );
  });

  it("falls back to Host, then to the URL", () => {
    expect(requestOrigin(req({ host: "app.example.com:8080" }), undefined)).toBe("http://app.example.com:8080");
    expect(requestOrigin(req(), undefined)).toBe("http://localhost:3000");
  });

  it("ignores forwarded values that are not a plain scheme or host", () => {
    const r = req({ host: "app.example.com", "x-forwarded-host": "evil.example/path?x", "x-forwarded-proto": "javascript" });
    expect(requestOrigin(r, undefined)).toBe("http://app.example.com");
    expect(requestOrigin(req({ host: "user@evil.example" }), undefined)).toBe("http://localhost:3000");
  });

  it("accepts IPv6 hosts", () => {
    expect(requestOrigin(req({ host: "[::1]:3000" }), undefined)).toBe("http://[::1]:3000");
  });
});

describe("absoluteUrl", () => {
  it("joins origin, path and query", () => {
    expect(absoluteUrl("https://a.example", "/v1/contracts/1")).toBe("https://a.example/v1/contracts/1");
    expect(absoluteUrl("https://a.example/", "/v1/x", { limit: 10, state: "draft", skip: undefined, none: null })).toBe(
      "https://a.example/v1/x?limit=10&state=draft",
    );
    expect(absoluteUrl("https://a.example", "/v1/x", new URLSearchParams("a=1&a=2"))).toBe("https://a.example/v1/x?a=1&a=2");
  });
});
