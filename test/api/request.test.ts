import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { firstDuplicateKey, jsonNestingDepth, MAX_OBJECT_MEMBERS, parseIdParam, parseQuery, readJsonBody } from "@/lib/api/endpoint";

const URL_ = "http://localhost/v1/contracts/create";

function post(body: BodyInit | null, headers: Record<string, string> = { "content-type": "application/json" }) {
  return new Request(URL_, { method: "POST", body, headers });
}

/** A body whose length the Request cannot know up front (no Content-Length). */
function streamed(text: string, chunkSize = 64 * 1024): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + chunkSize));
      at += chunkSize;
    },
  });
}

function streamedPost(text: string, headers: Record<string, string> = { "content-type": "application/json" }) {
  return new Request(URL_, { method: "POST", body: streamed(text), headers, duplex: "half" } as RequestInit);
}

async function failure(promise: Promise<unknown> | (() => unknown)): Promise<ApiError> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error("expected an ApiError");
}

describe("readJsonBody", () => {
  it("returns the object", async () => {
    await expect(readJsonBody(post('{"name":"A","parties":[{"type":"company"}]}'))).resolves.toEqual({
      name: "A",
      parties: [{ type: "company" }],
    });
  });

  it("refuses an object with more than MAX_OBJECT_MEMBERS attributes, at any depth; exactly that many pass", async () => {
    const wide = (n: number) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 0])));
    await expect(readJsonBody(post(wide(MAX_OBJECT_MEMBERS)))).resolves.toHaveProperty(`k${MAX_OBJECT_MEMBERS - 1}`, 0);
    for (const body of [wide(MAX_OBJECT_MEMBERS + 1), `{"parties":[{"participants":[${wide(MAX_OBJECT_MEMBERS + 1)}]}]}`]) {
      const e = await failure(readJsonBody(post(body)));
      expect(e.key).toBe("validation_failed");
      expect(e.message).toBe(`An object in the body has more than ${MAX_OBJECT_MEMBERS} attributes.`);
    }
    // An array is not an object: its length is the schemas' to bound.
    await expect(readJsonBody(post(`{"a":[${Array(MAX_OBJECT_MEMBERS + 1).fill(0).join(",")}]}`))).resolves.toHaveProperty("a");
  });

  it("accepts media type parameters and any case", async () => {
    await expect(readJsonBody(post("{}", { "content-type": "application/json; charset=utf-8" }))).resolves.toEqual({});
    await expect(readJsonBody(post("{}", { "content-type": "Application/JSON;charset=UTF-8" }))).resolves.toEqual({});
  });

  it.each([
    ["text/plain", { "content-type": "text/plain" }],
    ["form data", { "content-type": "application/x-www-form-urlencoded" }],
    ["a +json type", { "content-type": "application/merge-patch+json" }],
    ["a lookalike", { "content-type": "application/jsonx" }],
    ["no content type", {}],
  ])("answers 415 for %s", async (_, headers) => {
    const e = await failure(readJsonBody(post("{}", headers)));
    expect(e.key).toBe("content_type_not_json");
    expect(e.status).toBe(415);
  });

  it("answers 413 up front when Content-Length says the body is too large", async () => {
    const req = new Request(URL_, {
      method: "POST",
      body: streamed("{}"),
      headers: { "content-type": "application/json", "content-length": String(2 * 1024 * 1024) },
      duplex: "half",
    } as RequestInit);
    const e = await failure(readJsonBody(req));
    expect(e.key).toBe("body_too_large");
    expect(e.status).toBe(413);
  });

  it("answers 413 when a body without Content-Length grows past the limit", async () => {
    const big = JSON.stringify({ name: "x".repeat(1024 * 1024) });
    const e = await failure(readJsonBody(streamedPost(big)));
    expect(e.status).toBe(413);
  });

  it("answers 413 when Content-Length lies about a large body", async () => {
    const req = new Request(URL_, {
      method: "POST",
      body: streamed(JSON.stringify({ name: "x".repeat(2000) })),
      headers: { "content-type": "application/json", "content-length": "10" },
      duplex: "half",
    } as RequestInit);
    const e = await failure(readJsonBody(req, { maxBytes: 1000 }));
    expect(e.status).toBe(413);
  });

  it("accepts a body of exactly the limit", async () => {
    const body = JSON.stringify({ n: "x".repeat(100) });
    await expect(readJsonBody(post(body), { maxBytes: body.length })).resolves.toEqual({ n: "x".repeat(100) });
    expect((await failure(readJsonBody(post(body), { maxBytes: body.length - 1 }))).status).toBe(413);
  });

  it.each([
    ["truncated", '{"name": "A"'],
    ["trailing comma", '{"name": "A",}'],
    ["single quotes", "{'name': 'A'}"],
    ["empty", ""],
    ["whitespace", "  \n "],
    ["two values", "{} {}"],
  ])("answers 400 malformed_json when %s", async (_, text) => {
    const e = await failure(readJsonBody(post(text)));
    expect(e.key).toBe("malformed_json");
    expect(e.status).toBe(400);
  });

  it("answers 400 malformed_json for bytes that are not UTF-8", async () => {
    const e = await failure(readJsonBody(post(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]))));
    expect(e.key).toBe("malformed_json");
  });

  it.each([
    ["an array", "[1,2]", "an array"],
    ["null", "null", "null"],
    ["a string", '"x"', "a string"],
    ["a number", "42", "a number"],
    ["a boolean", "true", "a boolean"],
  ])("answers 400 body_not_object for %s", async (_, text, what) => {
    const e = await failure(readJsonBody(post(text)));
    expect(e.key).toBe("body_not_object");
    expect(e.message).toContain(what);
  });

  it("answers 400 json_too_deep past the nesting limit, and accepts it at the limit", async () => {
    const nested = (depth: number) => "{\"a\":".repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
    await expect(readJsonBody(post(nested(32)))).resolves.toBeTypeOf("object");
    const e = await failure(readJsonBody(post(nested(33))));
    expect(e.key).toBe("json_too_deep");
    expect(e.status).toBe(400);
  });

  it("rejects a huge nesting without parsing it (no stack overflow)", async () => {
    const text = "[".repeat(500_000) + "]".repeat(500_000);
    const e = await failure(readJsonBody(post(`{"a":${text}}`)));
    expect(e.key).toBe("json_too_deep");
  });

  it("does not count brackets inside strings", async () => {
    const body = JSON.stringify({ name: "[[[[{{{{".repeat(100), quote: 'a\\"[[[' });
    await expect(readJsonBody(post(body))).resolves.toMatchObject({ quote: 'a\\"[[[' });
  });
});

describe("a name given twice in one object", () => {
  it.each([
    ['{"email":"a@x.io","email":"b@x.io"}', "email"],
    ['{"a":1,"\\u0061":2}', "a"],
    ['{"parties":[{"type":"company","name":"A","name":"B"}]}', "name"],
    ['{"x":{"y":1},"z":[{"k":1}],"x":2}', "x"],
    ['{"s":"a \\" , \\"s\\": 1","s":2}', "s"],
  ])("is found in %s", (text, name) => {
    expect(firstDuplicateKey(text)).toBe(name);
  });

  it.each(['{"a":1,"b":{"a":2}}', '[{"a":1},{"a":2}]', '{"a":"{\\"a\\":1}"}', '{"a":["a","a"]}', "{}", "[]", '"a"'])(
    "is not claimed in %s",
    (text) => expect(firstDuplicateKey(text)).toBeNull(),
  );

  it("is refused with a 400 naming it, before the body is used", async () => {
    const e = await failure(readJsonBody(post('{"workspace_id":1,"workspace_id":2}')));
    expect([e.status, e.key, e.parameterProblems]).toEqual([400, "validation_failed", { workspace_id: ["must be given at most once"] }]);
  });
});

describe("jsonNestingDepth", () => {
  it.each([
    ["1", 0],
    ["{}", 1],
    ['{"a":[1,{"b":[]}]}', 4],
    ['["[[[", "\\"]]"]', 1],
    ['{"a":{}, "b":{}}', 2],
  ])("%s has depth %i", (text, depth) => {
    expect(jsonNestingDepth(text)).toBe(depth);
  });
});

describe("parseIdParam", () => {
  it.each([
    ["1", 1],
    ["42", 42],
    ["2147483647", 2147483647],
  ])("accepts %s", (raw, value) => {
    expect(parseIdParam(raw, "contract_id")).toBe(value);
  });

  it.each(["0", "-1", "+1", "1.5", "1.0", "2147483648", "9999999999", "99999999999999999999999", "abc", "01", "007", "1e3", "0x1A", " 1", "1 ", "", "١"])(
    "rejects %j with 400 keyed by the parameter name",
    async (raw) => {
      const e = await failure(() => parseIdParam(raw, "participant_id"));
      expect(e.key).toBe("invalid_path_id");
      expect(e.status).toBe(400);
      expect(Object.keys(e.parameterProblems ?? {})).toEqual(["participant_id"]);
    },
  );

  it("rejects a missing parameter", async () => {
    expect((await failure(() => parseIdParam(undefined, "party_id"))).key).toBe("invalid_path_id");
  });
});

describe("parseQuery", () => {
  const schema = z.object({
    state: z.enum(["draft", "signed"]).optional(),
    workspace_id: z.string().regex(/^\d+$/, "must be an integer").transform(Number).optional(),
  });
  const url = (q: string) => new URL(`http://localhost/v1/contracts?${q}`);

  it("parses the known parameters and ignores unknown ones", () => {
    expect(parseQuery(url("state=draft&utm_source=x&utm_source=y&workspace_id=3"), schema)).toEqual({
      state: "draft",
      workspace_id: 3,
    });
  });

  it("answers 400 invalid_query_parameter with problems per parameter", async () => {
    const e = await failure(() => parseQuery(url("state=nope&workspace_id=x"), schema));
    expect(e.key).toBe("invalid_query_parameter");
    expect(Object.keys(e.parameterProblems ?? {}).sort()).toEqual(["state", "workspace_id"]);
    expect(e.parameterProblems?.workspace_id).toEqual(["must be an integer"]);
  });

  it("answers 400 for a repeated parameter", async () => {
    const e = await failure(() => parseQuery(url("state=draft&state=signed"), schema));
    expect(e.key).toBe("invalid_query_parameter");
    expect(e.parameterProblems).toEqual({ state: ["must be given at most once"] });
  });

  it("answers 400 for a NUL character in any parameter, the schema's own or not", async () => {
    for (const query of ["state=dr%00aft", "workspace_id=%00"]) {
      const e = await failure(() => parseQuery(url(query), schema));
      expect(e.key, query).toBe("invalid_query_parameter");
      expect(Object.values(e.parameterProblems ?? {}), query).toEqual([["must not contain the NUL character (%00)"]]);
    }
    const e = await failure(() => parseQuery(url("q=a%00b"), z.string().optional().transform(() => ({}))));
    expect(e.parameterProblems).toEqual({ q: ["must not contain the NUL character (%00)"] });
  });

  it("treats __proto__ as an ordinary (ignored) name", () => {
    expect(parseQuery(url("__proto__=x&constructor=y"), schema)).toEqual({});
  });
});

describe("text the database cannot store", () => {
  const post = (body: string) =>
    new Request("http://localhost/v1/x", { method: "POST", headers: { "content-type": "application/json" }, body });
  it.each([String.raw`{"name":"a\u0000b"}`, String.raw`{"name":"\ud800"}`, String.raw`{"p":[{"name":"\udfff x"}]}`])(
    "refuses %s with a 400",
    async (body) => {
      await expect(readJsonBody(post(body))).rejects.toMatchObject({ status: 400, key: "validation_failed" });
    },
  );
  it("accepts ordinary unicode", async () => {
    await expect(readJsonBody(post(`{"name":"Åsa 💥 ‮"}`))).resolves.toEqual({ name: "Åsa 💥 ‮" });
  });
});
