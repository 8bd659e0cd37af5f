import { describe, expect, test } from "vitest";

import { contractSortOf, ZContractListItemSchema, ZContractListQuerySchema, ZCreateContractRequestSchema } from "@/lib/schemas";

import { problemsOf } from "./problems";

describe("ZCreateContractRequestSchema", () => {
  test("needs only workspace_id and template_id; parties may be empty", () => {
    expect(ZCreateContractRequestSchema.parse({ workspace_id: 1, template_id: 2 })).toEqual({ workspace_id: 1, template_id: 2 });
    expect(ZCreateContractRequestSchema.parse({ workspace_id: 1, template_id: 2, parties: [] }).parties).toEqual([]);
    expect(problemsOf(ZCreateContractRequestSchema, {})).toEqual({ workspace_id: ["is required"], template_id: ["is required"] });
  });

  test.each([
    ["1", "must be an integer"],
    [0, "must be a positive integer"],
    [-3, "must be a positive integer"],
    [1.5, "must be an integer"],
    [2147483648, "must be at most 2147483647"],
    [null, "must not be null"],
  ])("rejects workspace_id %j", (workspace_id, message) => {
    expect(problemsOf(ZCreateContractRequestSchema, { workspace_id, template_id: 2 })).toEqual({ workspace_id: [message] });
  });

  test("trims the name and wants 1–100 characters", () => {
    expect(ZCreateContractRequestSchema.parse({ workspace_id: 1, template_id: 2, name: "  NDA  " }).name).toBe("NDA");
    expect(problemsOf(ZCreateContractRequestSchema, { workspace_id: 1, template_id: 2, name: " " })).toEqual({
      name: ["must not be empty"],
    });
    expect(problemsOf(ZCreateContractRequestSchema, { workspace_id: 1, template_id: 2, name: "n".repeat(101) })).toEqual({
      name: ["must be at most 100 characters"],
    });
  });

  test("rejects unknown attributes and names them", () => {
    expect(problemsOf(ZCreateContractRequestSchema, { workspace_id: 1, template_id: 2, state: "signed" })).toEqual({
      "": ['"state" is not a known attribute'],
    });
  });

  test("reports nested problems with the full path a client sees", () => {
    const problems = problemsOf(ZCreateContractRequestSchema, {
      workspace_id: 1,
      template_id: 2,
      parties: [
        { type: "company", name: "Acme", participants: [{ name: "Jane", phone_number: "0701234567", colour: "red" }] },
        { type: "individual" },
      ],
    });
    expect(problems).toEqual({
      "parties.0.participants.0.phone_number": ["must be in E.164 format, e.g. +46701234567"],
      "parties.0.participants.0": ['"colour" is not a known attribute'],
      "parties.1.participant": ["is required"],
    });
  });

  test("parties must be a list", () => {
    expect(problemsOf(ZCreateContractRequestSchema, { workspace_id: 1, template_id: 2, parties: {} })).toEqual({
      parties: ["must be a list"],
    });
  });
});

describe("ZContractListQuerySchema", () => {
  test("fills in defaults", () => {
    // No sort given: `id`, or `relevance` with q (contractSortOf), decided where the list is read.
    expect(ZContractListQuerySchema.parse({})).toEqual({ limit: 100, offset: 0 });
    expect(contractSortOf(ZContractListQuerySchema.parse({}))).toBe("id");
    expect(contractSortOf(ZContractListQuerySchema.parse({ q: "x" }))).toBe("relevance");
  });

  test("parses filters and sort", () => {
    expect(ZContractListQuerySchema.parse({ workspace_id: "7", state: "pending", sort: "-updated_time", limit: "10", offset: "20" })).toEqual({
      workspace_id: 7,
      state: "pending",
      sort: "-updated_time",
      limit: 10,
      offset: 20,
    });
  });

  test.each([
    [{ workspace_id: "-1" }, "workspace_id"],
    [{ workspace_id: "1.5" }, "workspace_id"],
    [{ workspace_id: "abc" }, "workspace_id"],
    [{ state: "archived" }, "state"],
    [{ sort: "--name" }, "sort"],
    [{ sort: "title" }, "sort"],
    [{ limit: "all" }, "limit"],
    [{ limit: "0" }, "limit"],
    [{ offset: "19901" }, "offset"],
  ])("rejects %j", (query, key) => {
    expect(Object.keys(problemsOf(ZContractListQuerySchema, query))).toEqual([key]);
  });

  test("explains the sort values", () => {
    expect(problemsOf(ZContractListQuerySchema, { sort: "title" })).toEqual({
      sort: ["must be id, name, created_time, updated_time, end_date or notice_deadline, optionally preceded by -, or relevance"],
    });
    expect(problemsOf(ZContractListQuerySchema, { sort: "relevance" })).toEqual({
      sort: ["relevance needs q"],
    });
  });
});

test("a contract list item carries party summaries without their people", () => {
  const time = "2024-05-01T09:30:00.000+00:00";
  const link = { href: "https://x/v1/contracts/1" };
  const item = ZContractListItemSchema.parse({
    id: 1,
    name: "NDA",
    state: "draft",
    workspace_id: 1,
    template_id: 1,
    created_time: time,
    updated_time: time,
    published_time: null,
    state_updated_time: time,
    signing_period_expiry_time: null,
    signing_order: "parallel",
    delegation_allowed: true,
    lifecycle_settings: { duration: "none", start_date: null, end_date: null, initial_duration: null, renewal_period: null, notice_period: null },
    lifecycle_state: {
      signed_date: null,
      state: null,
      sub_state: null,
      period_start_date: null,
      period_end_date: null,
      end_date: null,
      notice_deadline: null,
      renewals: 0,
      renewed_time: null,
    },
    _links: { self: link, parties: link, data_fields: link },
    parties: [
      {
        id: 5,
        type: "company",
        name: "Acme",
        country_code: "SE",
        identification_number: "",
        my_party: true,
        _private_ownerside: { created_time: time, updated_time: null },
        participants: [],
      },
    ],
  });
  expect(item.parties[0]).not.toHaveProperty("participants");
  expect(item.parties[0]?.my_party).toBe(true);
});
