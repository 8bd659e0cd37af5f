import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api/errors";
import { paginated, paginatedPreloaded } from "@/lib/api/pagination";
import { parseQuery } from "@/lib/api/endpoint";
import { ZPaginationQuerySchema } from "@/lib/schemas/pagination";
import { pageArgs } from "@/lib/services/page-args";

const ORIGIN = "https://contracts.example.com";
const url = (q = "") => new URL(`http://localhost/v1/template_types${q ? `?${q}` : ""}`);

function problems(fn: () => unknown): Record<string, string[]> {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).key).toBe("invalid_query_parameter");
    expect((error as ApiError).status).toBe(400);
    return (error as ApiError).parameterProblems ?? {};
  }
  throw new Error("expected a 400");
}

// What every list endpoint's declared query does with limit and offset (lib/api/endpoint.ts).
const parsePagination = (u: URL, { allowAll = false } = {}) => parseQuery(u, ZPaginationQuerySchema({ allowAll }));

describe("pagination parameters", () => {
  it("defaults to limit 100, offset 0", () => {
    expect(parsePagination(url())).toEqual({ limit: 100, offset: 0 });
  });

  it("parses the bounds", () => {
    expect(parsePagination(url("limit=1&offset=19900"))).toEqual({ limit: 1, offset: 19900 });
    expect(parsePagination(url("limit=100&offset=0"))).toEqual({ limit: 100, offset: 0 });
  });

  it.each(["limit=0", "limit=101", "limit=-1", "limit=abc", "limit=1.5", "limit=", "limit=all"])(
    "rejects %s where all is not allowed",
    (q) => {
      expect(Object.keys(problems(() => parsePagination(url(q))))).toEqual(["limit"]);
    },
  );

  it.each(["offset=-1", "offset=19901", "offset=1.5", "offset=abc"])("rejects %s", (q) => {
    expect(Object.keys(problems(() => parsePagination(url(q))))).toEqual(["offset"]);
  });

  it("accepts limit=all only where allowed", () => {
    expect(parsePagination(url("limit=all"), { allowAll: true })).toEqual({ limit: "all", offset: 0 });
    expect(Object.keys(problems(() => parsePagination(url("limit=0"), { allowAll: true })))).toEqual(["limit"]);
  });

  it("rejects a repeated limit", () => {
    expect(problems(() => parsePagination(url("limit=10&limit=20")))).toEqual({ limit: ["must be given at most once"] });
  });

  it("ignores other parameters", () => {
    expect(parsePagination(url("state=draft&limit=5"))).toEqual({ limit: 5, offset: 0 });
  });
});

describe("pageArgs", () => {
  it("maps to skip/take", () => {
    expect(pageArgs({ limit: 10, offset: 20 })).toEqual({ skip: 20, take: 10 });
    expect(pageArgs({ limit: "all", offset: 0 })).toEqual({ skip: 0 });
  });
});

describe("paginated", () => {
  const page = (limit: number | "all", offset: number, count: number, query?: Record<string, string | number | undefined>) =>
    paginated({ origin: ORIGIN, path: "/v1/contracts", query, limit, offset, count, data: [] as number[] });

  it("shows the defaults in self and has no other pages when everything fits", () => {
    const p = page(100, 0, 3);
    expect(p).toEqual({
      count: 3,
      data: [],
      _links: {
        self: { href: `${ORIGIN}/v1/contracts?limit=100&offset=0` },
        next: { href: null },
        previous: { href: null },
      },
    });
  });

  it("links next and previous in the middle", () => {
    const { _links } = page(10, 20, 50);
    expect(_links.next.href).toBe(`${ORIGIN}/v1/contracts?limit=10&offset=30`);
    expect(_links.previous.href).toBe(`${ORIGIN}/v1/contracts?limit=10&offset=10`);
  });

  it("has no next on the last page", () => {
    expect(page(10, 40, 50)._links.next.href).toBeNull();
    expect(page(10, 39, 50)._links.next.href).toBe(`${ORIGIN}/v1/contracts?limit=10&offset=49`);
  });

  it("clamps previous at offset 0", () => {
    expect(page(10, 5, 50)._links.previous.href).toBe(`${ORIGIN}/v1/contracts?limit=10&offset=0`);
  });

  it("points previous back from beyond the end", () => {
    const { _links } = page(10, 100, 50);
    expect(_links.next.href).toBeNull();
    expect(_links.previous.href).toBe(`${ORIGIN}/v1/contracts?limit=10&offset=90`);
  });

  it("has neither next nor previous with limit=all", () => {
    const { _links } = page("all", 0, 5000);
    expect(_links).toEqual({
      self: { href: `${ORIGIN}/v1/contracts?limit=all&offset=0` },
      next: { href: null },
      previous: { href: null },
    });
    expect(page("all", 10, 5000)._links.previous.href).toBeNull();
  });

  it("keeps filters and sort in every link, and leaves out unset ones", () => {
    const { _links } = page(10, 10, 100, { workspace_id: 3, state: "draft", sort: "-name", q: undefined });
    expect(_links.self.href).toBe(`${ORIGIN}/v1/contracts?workspace_id=3&state=draft&sort=-name&limit=10&offset=10`);
    expect(_links.next.href).toBe(`${ORIGIN}/v1/contracts?workspace_id=3&state=draft&sort=-name&limit=10&offset=20`);
    expect(_links.previous.href).toBe(`${ORIGIN}/v1/contracts?workspace_id=3&state=draft&sort=-name&limit=10&offset=0`);
  });

  it("encodes filter values", () => {
    expect(page(10, 0, 1, { q: "a&b c" })._links.self.href).toBe(`${ORIGIN}/v1/contracts?q=a%26b+c&limit=10&offset=0`);
  });

  it("never links next past the maximum offset 19900", () => {
    expect(page(100, 19800, 1_000_000)._links.next.href).toBe(`${ORIGIN}/v1/contracts?limit=100&offset=19900`);
    expect(page(100, 19900, 1_000_000)._links.next.href).toBeNull();
    expect(page(30, 19880, 1_000_000)._links.next.href).toBeNull();
    expect(page(20, 19880, 1_000_000)._links.next.href).toBe(`${ORIGIN}/v1/contracts?limit=20&offset=19900`);
  });

  it("keeps count independent of the page (spec 8)", () => {
    const p = paginated({ origin: ORIGIN, path: "/v1/x", limit: 10, offset: 0, count: 50, data: [1, 2, 3] });
    expect(p.count).toBe(50);
    expect(p.data).toEqual([1, 2, 3]);
  });
});

describe("paginatedPreloaded", () => {
  // A preload as PostgreSQL writes it (lib/db/sql.ts listHeadSql): the head's UTF-8 bytes in
  // bytea's escape format (`\ooo` for bytes over 0x7f, `\\` for a backslash).
  const escaped = (text: string) =>
    [...Buffer.from(text, "utf8")].map((b) => (b === 0x5c ? "\\\\" : b > 0x7f ? `\\${b.toString(8)}` : String.fromCharCode(b))).join("");
  const data = [{ name: "Naïve – \\ \"quoted\"", id: 1 }, { name: "b", id: 2 }];

  it("answers exactly what paginated would, for every page and filter", async () => {
    const cases: [number | "all", number, number, Record<string, string | number | undefined>?, string?][] = [
      [100, 0, 3],
      [10, 20, 50],
      [10, 40, 50],
      [10, 5, 50],
      [10, 100, 50],
      ["all", 0, 5000],
      ["all", 10, 5000],
      [10, 10, 100, { workspace_id: 3, state: "draft", sort: "-name", q: undefined }],
      [10, 0, 1, { q: "a&b c \" é" }],
      [100, 19800, 1_000_000],
      [20, 19880, 1_000_000],
      [10, 0, 5, undefined, "http://[::1]:3000"],
    ];
    for (const [limit, offset, count, query, origin = ORIGIN] of cases) {
      const input = { origin, path: "/v1/contracts/7/data_fields", query, limit, offset };
      const head = `{"count":${count},"data":${JSON.stringify(data)}`;
      const res = paginatedPreloaded(escaped(head), input);
      expect(res.headers.get("content-type")).toBe("application/json");
      const text = await res.text();
      expect(text).toBe(JSON.stringify(paginated({ ...input, count, data })));
    }
  });
});

