import { describe, expect, it } from "vitest";
import { appOrigins, linkOrigin, requestOrigin } from "@/lib/http/origin";
import { absoluteUrl } from "@/lib/http/links";

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

  it("answers the origin as the URL parser writes it: the base every link is written on", () => {
    // Upper case and a scheme's default port, from Host, a proxy's headers or PUBLIC_URL: links read
    // `https://api.example.com/v1/…` whichever way the client wrote it.
    expect(requestOrigin(req({ host: "App.Example.COM:80" }), undefined)).toBe("http://app.example.com");
    expect(requestOrigin(req({ host: "a", "x-forwarded-host": "API.example.com:443", "x-forwarded-proto": "HTTPS" }), undefined)).toBe("https://api.example.com");
    expect(requestOrigin(req(), "https://Contracts.Example.com:443/")).toBe("https://contracts.example.com");
    for (const host of ["App.Example.COM:80", "app.example.com:8080", "[::1]:3000", "10.0.0.5"]) {
      const origin = requestOrigin(req({ host }), undefined);
      expect(origin).toBe(new URL(origin).origin);
    }
  });
});

describe("linkOrigin: one rule for the app's links and the front door's refusals", () => {
  it("takes PUBLIC_URL, else the first plain host, else the fallback, as the URL parser writes an origin", () => {
    expect(linkOrigin("https://Contracts.Example.com:443/x", "http", ["evil.example"], "http://localhost")).toBe("https://contracts.example.com");
    expect(linkOrigin(undefined, "http", ["App.Example.COM:80"], "http://localhost")).toBe("http://app.example.com");
    expect(linkOrigin(undefined, "https", [undefined, "user@evil.example", "b.example"], "https://localhost")).toBe("https://b.example");
    expect(linkOrigin(undefined, "http", ["evil.example:99999"], "http://localhost")).toBe("http://localhost");
  });
});

describe("appOrigins: where a session's changes may come from", () => {
  it("is the request's own origin, and PUBLIC_URL's when set", () => {
    const r = req({ host: "app.example.com:8080" });
    expect(appOrigins(r, undefined)).toEqual(["http://app.example.com:8080"]);
    expect(appOrigins(r, "https://Contracts.Example.com/")).toEqual(["http://app.example.com:8080", "https://contracts.example.com"]);
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

describe("absoluteUrl written without the URL parser", () => {
  /** What the URL parser builds: the reference the short way must equal. */
  function parsed(origin: string, path: string, query?: Record<string, string | number | null | undefined>): string {
    const url = new URL(path, origin.endsWith("/") ? origin : `${origin}/`);
    for (const [key, value] of Object.entries(query ?? {})) if (value !== null && value !== undefined) url.searchParams.append(key, String(value));
    return url.toString();
  }

  it("keeps what it learnt of the last origin for that origin only (origins alternating)", () => {
    const pairs = [["http://localhost:3000", "http://A.Example"], ["https://a.example", "http://host:80"], ["http://1.2.3", "http://127.0.0.1:8080"], ["http://a.example", "http://a..b"]];
    for (const [a, b] of pairs) {
      for (let i = 0; i < 3; i++) {
        for (const origin of [a!, b!]) {
          expect(absoluteUrl(origin, "/v1/x", { limit: 1 }), origin).toBe(parsed(origin, "/v1/x", { limit: 1 }));
        }
      }
    }
    for (let i = 0; i < 3; i++) {
      expect(requestOrigin(req({ host: "app.example.com:8080" }), undefined)).toBe("http://app.example.com:8080");
      expect(requestOrigin(req({ host: "evil.example:99999" }), undefined)).toBe("http://localhost:3000");
    }
  });

  it("equals the parser's URL for origins, paths and queries the parser would rewrite and ones it would not", () => {
    const origins = [
      "http://localhost:3000", "https://a.example", "http://A.Example", "http://host:80", "https://host:443", "http://host:443", "http://host:0080",
      "http://1.2.3", "http://0x7f.0.0.1", "http://127.0.0.1:8080", "http://256.1.1.1", "http://01.2.3.4", "http://a.b.123", "http://xn--nxasmq6b.example",
      "http://a..b", "http://[::1]:3000", "http://host.:3000", "http://-a.example", "https://contracts.example.com/",
    ];
    const paths = ["/v1/contracts", "/v1/contracts/1/data_fields", "/v1/./x", "/v1/../x", "/v1/a b", "/v1/%41", "/v1/é", "/v1/.hidden", "/v1//x", "/v1/x/"];
    const queries = [
      undefined, {}, { limit: 100, offset: 0 }, { limit: "all" }, { q: "a b" }, { q: "a~b" }, { q: "a*b" }, { q: "ä" }, { q: "" }, { "": "x" },
      { q: "a&b=c" }, { sort: "-name", state: null, x: undefined }, { "a.b": "1.5e3" }, { "a b": "1", "a~": "2" }, { q: "%41" }, { q: "+" },
    ];
    let checked = 0;
    for (const origin of origins) {
      for (const path of paths) {
        for (const query of queries) {
          let expected: string;
          try {
            expected = parsed(origin, path, query);
          } catch {
            continue; // an origin the app never gets (requestOrigin checks it can be parsed)
          }
          expect(absoluteUrl(origin, path, query), `${origin} ${path} ${JSON.stringify(query)}`).toBe(expected);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(2500);
  });
});
