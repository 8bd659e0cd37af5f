import { expect, test } from "vitest";

import { ERROR_CODES } from "@/lib/domain/error-codes";
import { buildOpenApiDocument } from "@/lib/openapi/document";

type Operation = {
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { $ref?: string; description?: string }>;
  security?: unknown[];
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, unknown>;
    responses: Record<string, { description: string }>;
    securitySchemes: Record<string, { type: string; in: string; name: string }>;
  };
  security: Record<string, string[]>[];
  "x-error-codes": { code: number; status: number }[];
};

const doc = buildOpenApiDocument() as Document;

const ROUTES: [string, string][] = [
  ["get", "/v1/ping"],
  ["get", "/v1/openapi.json"],
  ["get", "/v1/error_codes"],
  ["get", "/v1/error_codes/{code}"],
  ["get", "/v1/workspaces"],
  ["get", "/v1/workspaces/{workspace_id}"],
  ["get", "/v1/workspaces/{workspace_id}/reminder_settings"],
  ["put", "/v1/workspaces/{workspace_id}/reminder_settings"],
  ["get", "/v1/dashboard"],
  ["get", "/v1/contracts/{contract_id}/reminder_settings"],
  ["put", "/v1/contracts/{contract_id}/reminder_settings"],
  ["get", "/v1/users"],
  ["get", "/v1/templates"],
  ["get", "/v1/templates/{template_id}"],
  ["put", "/v1/templates/{template_id}"],
  ["get", "/v1/template_types"],
  ["get", "/v1/template_types/{template_type_id}"],
  ["get", "/v1/contracts"],
  ["get", "/v1/contracts/export.csv"],
  ["post", "/v1/contracts/create"],
  ["get", "/v1/contracts/{contract_id}"],
  ["delete", "/v1/contracts/{contract_id}"],
  ["post", "/v1/contracts/{contract_id}/publish"],
  ["post", "/v1/contracts/{contract_id}/withdraw"],
  ["put", "/v1/contracts/{contract_id}/lifecycle_settings"],
  ["post", "/v1/contracts/{contract_id}/cancel"],
  ["post", "/v1/contracts/{contract_id}/terminate"],
  ["get", "/v1/contracts/{contract_id}/reminders"],
  ["post", "/v1/contracts/{contract_id}/reminders"],
  ["delete", "/v1/contracts/{contract_id}/reminders/{reminder_id}"],
  ["get", "/v1/contracts/{contract_id}/placements"],
  ["post", "/v1/contracts/{contract_id}/placements"],
  ["put", "/v1/contracts/{contract_id}/placements/{placement_id}"],
  ["delete", "/v1/contracts/{contract_id}/placements/{placement_id}"],
  ["get", "/v1/contracts/{contract_id}/publish_readiness"],
  ["get", "/v1/contracts/{contract_id}/document"],
  ["put", "/v1/contracts/{contract_id}/document"],
  ["get", "/v1/contracts/{contract_id}/files"],
  ["post", "/v1/contracts/{contract_id}/files"],
  ["get", "/v1/contracts/{contract_id}/files/{file_id}"],
  ["delete", "/v1/contracts/{contract_id}/files/{file_id}"],
  ["get", "/v1/contracts/{contract_id}/events"],
  ["get", "/v1/contracts/{contract_id}/events/verify"],
  ["post", "/v1/verify"],
  ["get", "/v1/contracts/{contract_id}/parties"],
  ["post", "/v1/contracts/{contract_id}/parties"],
  ["get", "/v1/contracts/{contract_id}/parties/{party_id}"],
  ["delete", "/v1/contracts/{contract_id}/parties/{party_id}"],
  ["post", "/v1/contracts/{contract_id}/parties/{party_id}/participants"],
  ["get", "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}"],
  ["put", "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}"],
  ["delete", "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}"],
  ["get", "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}/signing_link"],
  ["post", "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}/send_invitation"],
  ["get", "/v1/contracts/{contract_id}/data_fields"],
  ["get", "/v1/contracts/{contract_id}/data_fields/{data_field_id}"],
  ["put", "/v1/contracts/{contract_id}/data_fields/{data_field_id}"],
  ["get", "/v1/email_messages"],
  ["post", "/v1/webhooks"],
  ["get", "/v1/webhooks"],
  ["get", "/v1/webhooks/{webhook_id}"],
  ["put", "/v1/webhooks/{webhook_id}"],
  ["delete", "/v1/webhooks/{webhook_id}"],
  ["get", "/v1/webhooks/{webhook_id}/deliveries"],
  ["post", "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry"],
];

const operation = (method: string, path: string): Operation => {
  const op = doc.paths[path]?.[method];
  if (!op) throw new Error(`${method} ${path} is missing`);
  return op;
};

test("is an OpenAPI 3.1 document that survives JSON", () => {
  expect(doc.openapi).toBe("3.1.0");
  expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
});

test("documents exactly the /v1 routes", () => {
  const documented = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
  expect(documented.sort()).toEqual(ROUTES.map(([method, path]) => `${method} ${path}`).sort());
});

test.each(ROUTES)("%s %s declares each path parameter and answers 200 (a DELETE 204)", (method, path) => {
  const op = operation(method, path);
  const declared = (op.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
  const inTemplate = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  expect(declared).toEqual(inTemplate);
  expect(op.responses[method === "delete" ? "204" : "200"]).toBeDefined();
});

test("errors use the shared Error shape and list their codes", () => {
  const badRequest = operation("put", "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}").responses["400"];
  expect(badRequest).toEqual({ $ref: "#/components/responses/BadRequest" });
  expect(doc.components.schemas.Error).toBeDefined();
  expect(doc.components.responses.BadRequest?.description).toContain(String(ERROR_CODES.option_not_offered.code));
  expect(doc["x-error-codes"]).toHaveLength(Object.keys(ERROR_CODES).length);
});

test("writes document their failure statuses, reads do not claim 409 or 415", () => {
  const update = operation("put", "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}");
  expect(Object.keys(update.responses).sort()).toEqual(["200", "400", "401", "403", "404", "409", "412", "413", "415", "429", "503"]);
  const create = operation("post", "/v1/contracts/create");
  expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(["400", "401", "403", "404", "409", "413", "415"]));
  const read = operation("get", "/v1/contracts/{contract_id}");
  expect(Object.keys(read.responses)).not.toContain("409");
  expect(Object.keys(read.responses)).not.toContain("415");
  expect(doc.components.responses.MethodNotAllowed).toBeDefined();
});

test("request bodies reference the shared request schemas", () => {
  const update = operation("put", "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}");
  expect(update.requestBody?.content["application/json"]?.schema.$ref).toBe("#/components/schemas/UpdateParticipantRequest");
  const create = operation("post", "/v1/contracts/create");
  expect(create.requestBody?.content["application/json"]?.schema.$ref).toBe("#/components/schemas/CreateContractRequest");
  expect(doc.components.schemas.UpdateParticipantRequest).toMatchObject({ additionalProperties: false });
});

test("the contract list documents its filters, sort and pagination", () => {
  const names = (operation("get", "/v1/contracts").parameters ?? []).map((p) => p.name).sort();
  expect(names).toEqual([
    "awaiting_me",
    "delivery_failed",
    "ends_after",
    "ends_before",
    "expires_before",
    "lifecycle_state",
    "limit",
    "matches",
    "notice_deadline_after",
    "notice_deadline_before",
    "offset",
    "q",
    "renewed_after",
    "sort",
    "state",
    "state_updated_after",
    "updated_before",
    "workspace_id",
  ]);
});

test("the CSV export takes the list's filters and sort without the page (nor the marks, which a CSV has no place for), and answers text/csv", () => {
  const list = (operation("get", "/v1/contracts").parameters ?? []).map((p) => p.name).filter((name) => !["limit", "offset", "matches"].includes(name));
  const op = operation("get", "/v1/contracts/export.csv");
  expect((op.parameters ?? []).map((p) => p.name).sort()).toEqual(list.sort());
  expect(Object.keys((op.responses["200"] as { content: Record<string, unknown> }).content)).toEqual(["text/csv"]);
});

test("declares both authentication headers, with the user e-mail optional", () => {
  expect(doc.components.securitySchemes.apiToken).toMatchObject({ type: "apiKey", in: "header", name: "x-service-api-token" });
  expect(doc.components.securitySchemes.userEmail).toMatchObject({ type: "apiKey", in: "header", name: "x-service-user-email" });
  expect(doc.security).toEqual([{ apiToken: [], userEmail: [] }, { apiToken: [] }]);
  expect(operation("get", "/v1/ping").security).toEqual([]);
});

test("every /v1 route file is in the document, and nothing else", async () => {
  const { readdir } = await import("node:fs/promises");
  const files = (await readdir("app/v1", { recursive: true })).filter((f) => f.endsWith("route.ts") && !f.includes("[..."));
  const routes = files.map((f) => `/v1/${f.replace(/\/?route\.ts$/, "")}`.replace(/\/$/, "").replace(/\[(\w+)\]/g, "{$1}"));
  expect(routes.sort()).toEqual(Object.keys(doc.paths).sort());
});

test("documents every webhook event type, its signed headers and its body", async () => {
  const { WEBHOOK_EVENT_TYPE_NAMES } = await import("@/lib/domain/webhooks");
  const hooks = (doc as unknown as { webhooks: Record<string, { post: Operation & { requestBody: { content: Record<string, { schema: unknown }> } } }> }).webhooks;
  expect(Object.keys(hooks).sort()).toEqual([...WEBHOOK_EVENT_TYPE_NAMES].sort());
  for (const type of WEBHOOK_EVENT_TYPE_NAMES) {
    const post = hooks[type]!.post;
    expect((post.parameters ?? []).filter((p) => p.in === "header").map((p) => p.name).sort()).toEqual(["webhook-id", "webhook-signature", "webhook-timestamp"]);
    expect(JSON.stringify(post.requestBody.content["application/json"]!.schema)).toContain(`"const":"${type}"`);
  }
  expect(JSON.stringify(hooks["contract.sign"])).toContain("#/components/schemas/Contract");
  expect(JSON.stringify(hooks["contract.delete"])).toContain("#/components/schemas/WebhookGoneResource");
});
