import { expect, it } from "vitest";
import { authStatementSql } from "@/lib/api/auth";
import { contractDetailPreload, contractListPreload } from "@/lib/api/json/contract";
import { dashboardPreload } from "@/lib/api/json/dashboard";
import { dataFieldPreload, dataFieldsPreload } from "@/lib/api/json/data-field";
import { participantAnswerSql, participantPreload } from "@/lib/api/json/participant";
import { partiesPreload, partyPreload } from "@/lib/api/json/party";
import { templateTypePreload, templateTypesPreload } from "@/lib/api/json/template-type";
import type { Sql } from "@/lib/db/sql";
import { ZContractListQuerySchema } from "@/lib/schemas";
import { updateTargetsPreload } from "@/lib/services/participants/update-participant";

// A hot statement is prepared once per connection under a name found by its text (lib/db/query.ts
// `queryOne`), so its text must depend on its shape only: the same for every request of that shape,
// with every value a parameter. Two requests that differ in every value, written out in full.

/** Values of one request: every one distinct from the other request's, and long enough to be found in a text. */
const request = (n: 0 | 1) => ({
  origin: ["http://one.example", "https://two.example:8443"][n]!,
  ids: { contractId: 7_340_001 + n, partyId: 8_450_001 + n, participantId: 9_560_001 + n },
  text: ["name-search-one", "name-search-two"][n]!,
  time: ["2031-02-03T04:05:06.000Z", "2032-03-04T05:06:07.000Z"][n]!,
  credentials: { tokenHash: ["a".repeat(64), "b".repeat(64)][n]!, email: ["one@example.com", "two@example.com"][n]!, userId: null },
  userId: 6_230_001 + n,
});

type TRequest = ReturnType<typeof request>;

const SHAPES: Record<string, (r: TRequest) => Sql> = {
  "GET /v1/contracts/{id}": (r) => contractDetailPreload(r.ids.contractId, r.origin),
  "GET /v1/contracts with every filter": (r) =>
    contractListPreload(
      ZContractListQuerySchema.parse({
        limit: "25",
        offset: "50",
        sort: "-updated_time",
        workspace_id: String(r.ids.partyId),
        state: "pending",
        q: r.text,
        updated_before: r.time,
        expires_before: r.time,
        state_updated_after: r.time,
        delivery_failed: "true",
        awaiting_me: "true",
      }),
      r.origin,
    ),
  "GET …/participants/{id}": (r) => participantPreload(r.ids, r.origin),
  "PUT …/participants/{id} (its targets)": (r) => updateTargetsPreload(r.ids),
  "GET …/parties": (r) => partiesPreload(r.ids.contractId, { limit: 10, offset: 20 }, r.origin),
  "GET …/parties/{id}": (r) => partyPreload(r.ids.contractId, r.ids.partyId, r.origin),
  "GET …/data_fields": (r) => dataFieldsPreload(r.ids.contractId, { limit: "all", offset: 0 }, r.origin),
  "GET …/data_fields/c::{custom id}": (r) => dataFieldPreload(r.ids.contractId, { customId: r.text }, r.origin),
  "GET /v1/template_types/{id}": (r) => templateTypePreload(r.ids.contractId, r.origin),
  "GET /v1/template_types": (r) => templateTypesPreload({ limit: 100, offset: 19_900 }, r.origin),
  "GET /v1/dashboard": (r) => dashboardPreload(new Date(r.time)),
};

const statement = (shape: string, r: TRequest) => authStatementSql(r.credentials, SHAPES[shape]!(r));

/** The request's own values as they could appear in a text. */
const written = (r: TRequest) => [r.origin, r.text, r.time, r.credentials.tokenHash, r.credentials.email, ...Object.values(r.ids).map(String), String(r.userId)];

it.each(Object.keys(SHAPES))("%s: the same text for other values, none of them in it", (shape) => {
  const [one, two] = [statement(shape, request(0)), statement(shape, request(1))];
  expect(two.text).toBe(one.text);
  expect(two.values).not.toEqual(one.values);
  for (const value of written(request(0))) expect(one.text).not.toContain(value);
});

it("the participant answer a PUT reads back: the same text for other values, none of them in it", () => {
  const answer = (r: TRequest) =>
    participantAnswerSql({ kind: "user", userId: r.userId } as Parameters<typeof participantAnswerSql>[0], r.origin, r.ids.contractId, "q");
  const [one, two] = [answer(request(0)), answer(request(1))];
  expect(two.text).toBe(one.text);
  expect(one.values).toEqual([request(0).ids.contractId, "http://one.example", request(0).userId]);
  for (const value of written(request(0))) expect(one.text).not.toContain(value);
});
