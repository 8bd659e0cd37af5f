import { describe, expect, test } from "vitest";

import { ZCreateApiTokenRequestSchema, ZIdParamSchema, ZIdSchema, ZTimestampSchema } from "@/lib/schemas";

import { problemsOf } from "./problems";

describe("ZIdParamSchema (ids in paths and query strings)", () => {
  test.each([
    ["1", 1],
    ["42", 42],
    ["2147483647", 2147483647],
  ])("accepts %j as %d", (input, id) => {
    expect(ZIdParamSchema.parse(input)).toBe(id);
  });

  test.each(["0", "-1", "+1", "1.0", "1.5", "1e3", "0x10", "", " 1", "abc", "2147483648", "99999999999999999999"])(
    "rejects %j",
    (input) => {
      expect(problemsOf(ZIdParamSchema, input)).toEqual({ "": ["must be an integer from 1 to 2147483647"] });
    },
  );
});

describe("ZIdSchema (ids in bodies)", () => {
  test("accepts positive int32 numbers only", () => {
    expect(ZIdSchema.parse(2147483647)).toBe(2147483647);
    expect(problemsOf(ZIdSchema, 2147483648)).toEqual({ "": ["must be at most 2147483647"] });
    expect(problemsOf(ZIdSchema, 0)).toEqual({ "": ["must be a positive integer"] });
    expect(problemsOf(ZIdSchema, 1.5)).toEqual({ "": ["must be an integer"] });
    expect(problemsOf(ZIdSchema, "1")).toEqual({ "": ["must be an integer"] });
    expect(problemsOf(ZIdSchema, null)).toEqual({ "": ["must not be null"] });
  });
});

test("ZTimestampSchema wants UTC with a numeric offset and milliseconds", () => {
  expect(ZTimestampSchema.parse("2024-05-01T09:30:00.000+00:00")).toBe("2024-05-01T09:30:00.000+00:00");
  for (const bad of ["2024-05-01T09:30:00.000Z", "2024-05-01T09:30:00+00:00", "2024-05-01T09:30:00.000+02:00", "2024-05-01"]) {
    expect(ZTimestampSchema.safeParse(bad).success, bad).toBe(false);
  }
});

describe("ZCreateApiTokenRequestSchema", () => {
  test("takes a trimmed name of 1–100 characters and nothing else", () => {
    expect(ZCreateApiTokenRequestSchema.parse({ name: "  CRM sync " })).toEqual({ name: "CRM sync" });
    expect(problemsOf(ZCreateApiTokenRequestSchema, {})).toEqual({ name: ["is required"] });
    expect(problemsOf(ZCreateApiTokenRequestSchema, { name: "   " })).toEqual({ name: ["must not be empty"] });
    expect(problemsOf(ZCreateApiTokenRequestSchema, { name: "x".repeat(101) })).toEqual({
      name: ["must be at most 100 characters"],
    });
    expect(problemsOf(ZCreateApiTokenRequestSchema, { name: "ok", scopes: [] })).toEqual({
      "": ['"scopes" is not a known attribute'],
    });
    // Names an object inherits are unknown attributes too, not the hint table's inherited members.
    expect(problemsOf(ZCreateApiTokenRequestSchema, JSON.parse('{"name":"ok","constructor":{},"toString":1,"__proto__":{}}'))).toEqual({
      "": ['"constructor" is not a known attribute; "toString" is not a known attribute; "__proto__" is not a known attribute'],
    });
  });
});
