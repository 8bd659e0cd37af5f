import { createHash, scryptSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApiToken, createContract, createTemplate, createTemplateType, createUser, createWorkspace, uniqueSuffix } from "@/lib/db/seed/factories";
import { baseUrl, serverDb } from "@/test/helpers/http";
import { TEST_ADMIN_PASSWORD, TEST_API_TOKEN } from "@/test/helpers/server";

// Issue 5, promise 5: for every /v1 route and every kind of caller, what it may see and change,
// as one table. Workspaces A and B, their users, templates and contracts are this file's own, so
// the counts are exact while other test files write to the shared server.
//
// Rows run in order: reads first, then the writes (which add contracts to A and B).

const MISSING = 2_147_483_647;
const PASSWORDS = { admin: `admin-${uniqueSuffix()}-pw`, viewerA: `viewer-${uniqueSuffix()}-pw` };

type Who =
  | "admin" // a user with is_admin, by token + e-mail
  | "editorA"
  | "viewerA"
  | "editorB"
  | "anonymous" // token without an e-mail: the anonymous admin
  | "revokedToken"
  | "unknownToken"
  | "missingToken"
  | "unknownEmail"
  | "inactiveEmail" // an inactive user who is an editor of A
  | "emptyEmail"
  | "adminSession" // staff web-app session cookie of the admin
  | "viewerSession"; // staff web-app session cookie of viewer A

type Res = { status: number; json: any; text: string; headers: Headers };
interface Ctx {
  ids: Ids;
  call: (who: Who, method: string, path: string, body?: unknown) => Promise<Res>;
}
interface Case {
  who: Who;
  method?: "GET" | "PUT" | "POST" | "DELETE";
  /** `{name}` placeholders are filled from `Ids`. */
  path: string;
  body?: (ids: Ids) => unknown;
  expect: number;
  /** Error code expected with the status. */
  code?: number;
  also?: (res: Res, ctx: Ctx) => void | Promise<void>;
}

interface Ids {
  [key: string]: number;
}

let ids: Ids;
let emails: Record<"admin" | "editorA" | "viewerA" | "editorB" | "inactiveA", string>;
/** Table sizes once this file's rows exist (other files only add rows). */
let baseline: Record<"workspace" | "user" | "template" | "templateType", number>;
const secrets: { token: string; revoked: string; created?: string } = { token: TEST_API_TOKEN, revoked: "" };
const cookies: Partial<Record<Who, string>> = {};
/** Every response body of this file, checked at the end for tokens and passwords. */
const bodies: string[] = [];

beforeAll(async () => {
  const made = await serverDb().$transaction(
    async (db) => {
      const A = await createWorkspace(db);
      const B = await createWorkspace(db);
      const type = await createTemplateType(db);
      const tplA = await createTemplate(db, { templateTypeId: type.id, workspaceIds: [A.id], dataFields: [{ name: "Price", defaultValue: "10" }] });
      const tplB = await createTemplate(db, { workspaceIds: [B.id], dataFields: [{ name: "Term" }] });
      const tplAB = await createTemplate(db, { workspaceIds: [A.id, B.id] });
      const admin = await createUser(db, { isAdmin: true, password: PASSWORDS.admin });
      const editorA = await createUser(db, { memberships: [{ workspaceId: A.id, role: "editor" }] });
      const viewerA = await createUser(db, { password: PASSWORDS.viewerA, memberships: [{ workspaceId: A.id, role: "viewer" }] });
      const editorB = await createUser(db, { memberships: [{ workspaceId: B.id, role: "editor" }] });
      const inactiveA = await createUser(db, { active: false, memberships: [{ workspaceId: A.id, role: "editor" }] });
      const cA = await createContract(db, {
        workspaceId: A.id, templateId: tplA.id, owner: editorA, name: "A draft",
        counterparties: [{ type: "company", name: "Buyer A", participants: [{ name: "Ann A", title: "original" }] }],
      });
      const cA2 = await createContract(db, { workspaceId: A.id, templateId: tplAB.id, owner: editorA, name: "A signed", state: "signed" });
      const cB = await createContract(db, {
        workspaceId: B.id, templateId: tplB.id, owner: editorB, name: "B draft",
        counterparties: [{ type: "company", name: "Buyer B", participants: [{ name: "Bob B", title: "original" }] }],
      });
      const party = (contractId: number, myParty: boolean) =>
        db.party.findFirstOrThrow({ where: { contractId, myParty }, include: { participants: true } });
      const [pA, pB, ownA2] = await Promise.all([party(cA.id, false), party(cB.id, false), party(cA2.id, true)]);
      const field = (contractId: number) => db.contractDataField.findFirstOrThrow({ where: { contractId } });
      const live = await createApiToken(db, { name: "live" });
      const revoked = await createApiToken(db, { name: "revoked" });
      await db.apiToken.update({ where: { id: revoked.record.id }, data: { revokedAt: new Date() } });
      return {
        revoked: revoked.token,
        emails: { admin: admin.email, editorA: editorA.email, viewerA: viewerA.email, editorB: editorB.email, inactiveA: inactiveA.email },
        ids: {
          A: A.id, B: B.id, type: type.id, tplA: tplA.id, tplB: tplB.id, tplAB: tplAB.id,
          admin: admin.id, editorA: editorA.id, viewerA: viewerA.id, editorB: editorB.id, inactiveA: inactiveA.id,
          cA: cA.id, cA2: cA2.id, cB: cB.id,
          partyA: pA.id, partyB: pB.id, participantA: pA.participants[0]!.id, participantB: pB.participants[0]!.id,
          ownPartyA2: ownA2.id, organizerA2: ownA2.participants[0]!.id,
          fieldA: (await field(cA.id)).id, fieldB: (await field(cB.id)).id,
          liveToken: live.record.id,
          missing: MISSING,
        },
      };
    },
    { timeout: 60_000 },
  );
  ids = made.ids;
  emails = made.emails;
  secrets.revoked = made.revoked;
  const db = serverDb();
  baseline = { workspace: await db.workspace.count(), user: await db.user.count(), template: await db.template.count(), templateType: await db.templateType.count() };
  cookies.adminSession = await signIn(emails.admin, PASSWORDS.admin);
  cookies.viewerSession = await signIn(emails.viewerA, PASSWORDS.viewerA);
});


async function signIn(email: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl() },
    body: JSON.stringify({ email, password }),
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  bodies.push(text);
  return res.headers.getSetCookie().map((c) => c.split(";", 1)[0]).join("; ");
}

function fill(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, key: string) => {
    if (!(key in ids)) throw new Error(`no id ${key}`);
    return String(ids[key]);
  });
}

async function call(who: Who, method: string, path: string, body?: unknown): Promise<Res> {
  const headers: Record<string, string> = { accept: "application/json" };
  const token = (t: string) => (headers["x-service-api-token"] = t);
  const email = (e: string) => (headers["x-service-user-email"] = e);
  switch (who) {
    case "admin": token(TEST_API_TOKEN); email(emails.admin); break;
    case "editorA": token(TEST_API_TOKEN); email(emails.editorA); break;
    case "viewerA": token(TEST_API_TOKEN); email(emails.viewerA); break;
    case "editorB": token(TEST_API_TOKEN); email(emails.editorB); break;
    case "anonymous": token(TEST_API_TOKEN); break;
    case "revokedToken": token(secrets.revoked); email(emails.admin); break;
    case "unknownToken": token(`unknown-${uniqueSuffix()}-0123456789`); email(emails.admin); break;
    case "missingToken": email(emails.admin); break;
    case "unknownEmail": token(TEST_API_TOKEN); email(`nobody-${uniqueSuffix()}@example.com`); break;
    case "inactiveEmail": token(TEST_API_TOKEN); email(emails.inactiveA); break;
    case "emptyEmail": token(TEST_API_TOKEN); email(""); break;
    case "adminSession":
    case "viewerSession":
      headers.cookie = cookies[who]!;
      // Session changes must come from this app's pages (the CSRF defence has its own tests).
      if (method !== "GET") headers.origin = baseUrl();
      break;
  }
  let payload: string | undefined;
  if (body !== undefined) {
    payload = JSON.stringify(body);
    headers["content-type"] = "application/json";
  }
  const res = await fetch(`${baseUrl()}${path}`, { method, headers, body: payload });
  const text = await res.text();
  bodies.push(text);
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, headers: res.headers };
}

const ctx: Ctx = { get ids() { return ids; }, call };

// --- checks used by the rows -------------------------------------------------------------------

/** `data` holds exactly these rows (by id) and `count` says how many. */
const exactly = (...keys: string[]) => (res: Res) => {
  const want = keys.map((k) => ids[k]!).sort((a, b) => a - b);
  expect(res.json.data.map((x: { id: number }) => x.id).sort((a: number, b: number) => a - b)).toEqual(want);
  expect(res.json.count).toBe(want.length);
};
const empty = (res: Res) => expect({ count: res.json.count, data: res.json.data }).toEqual({ count: 0, data: [] });
/**
 * Lists of everything (admins, and template types for all): `count` is the whole table. Other test
 * files only ever add rows, so it lies between the table's size when this file started and now.
 */
const everything = (table: "workspace" | "user" | "template" | "templateType") => async (res: Res) => {
  const total = await (serverDb()[table] as unknown as { count(): Promise<number> }).count();
  expect(res.json.count).toBeGreaterThanOrEqual(baseline[table]);
  expect(res.json.count).toBeLessThanOrEqual(total);
  expect(res.json.data).toHaveLength(Math.min(res.json.count, 100));
};
const permissions = (canCreate: boolean) => (res: Res) => expect(res.json.data[0]._permissions).toEqual({ "contract:create": canCreate });
/** A well-formed 404 that reads like the 404 for an id that does not exist (no existence leak). */
const sameAsMissing = (who: Who, missingPath: string) => async (res: Res, { call }: Ctx) => {
  const missing = await call(who, "GET", fill(missingPath));
  const shape = (r: Res) => ({ status: r.status, error_code: r.json.error_code, title: r.json.title, detail: String(r.json.detail).replace(/\d+/g, "#") });
  expect(shape(res)).toEqual(shape(missing));
};
const participantTitle = (key: string) => serverDb().participant.findUniqueOrThrow({ where: { id: ids[key]! } }).then((p) => p.title);
const unchangedTitle = (key: string) => async () => expect(await participantTitle(key)).toBe("original");
const titleIs = (key: string, title: string) => async (res: Res) => {
  expect(res.json.title).toBe(title);
  expect(res.headers.get("etag")).toMatch(/^"/);
  expect(await participantTitle(key)).toBe(title);
};
const tokenIsLive = async () => expect((await serverDb().apiToken.findUniqueOrThrow({ where: { id: ids.liveToken! } })).revokedAt).toBeNull();
const contractsIn = (key: string) => serverDb().contract.count({ where: { workspaceId: ids[key]! } });
let before: { A: number; B: number };
const nothingCreated = async () => expect({ A: await contractsIn("A"), B: await contractsIn("B") }).toEqual(before);
const createdIn = (workspace: string, organizer: string | null) => async (res: Res) => {
  expect(res.json.workspace_id).toBe(ids[workspace]);
  const row = await serverDb().contract.findUniqueOrThrow({ where: { id: res.json.id }, include: { parties: { include: { participants: true } } } });
  const own = row.parties.find((p) => p.myParty)!;
  expect(own.participants.map((p) => p.userId)).toEqual(organizer ? [ids[organizer]] : []);
};

// --- the table -----------------------------------------------------------------------------------

const MEMBERS: Who[] = ["admin", "editorA", "viewerA", "editorB", "anonymous"];
const REFUSED: [Who, number][] = [
  ["revokedToken", 4010002],
  ["unknownToken", 4010002],
  ["missingToken", 4010001],
  ["unknownEmail", 4010003],
  ["inactiveEmail", 4010003],
  ["emptyEmail", 4010003],
];

/** Every route that needs a caller, with a path that exists. */
const AUTHENTICATED_GETS = [
  "/v1/workspaces",
  "/v1/users",
  "/v1/templates",
  "/v1/templates/{tplA}",
  "/v1/template_types",
  "/v1/template_types/{type}",
  "/v1/contracts",
  "/v1/contracts?workspace_id={A}&state=draft",
  "/v1/contracts/{cA}",
  "/v1/contracts/{cA}/parties",
  "/v1/contracts/{cA}/parties/{partyA}",
  "/v1/contracts/{cA}/parties/{partyA}/participants/{participantA}",
  "/v1/contracts/{cA}/data_fields",
  "/v1/contracts/{cA}/data_fields/{fieldA}",
];
const PUBLIC_GETS = ["/v1/ping", "/v1/error_codes", "/v1/error_codes/4040001", "/v1/openapi.json"];
const PUT_A = "/v1/contracts/{cA}/parties/{partyA}/participants/{participantA}";
const PUT_B = "/v1/contracts/{cB}/parties/{partyB}/participants/{participantB}";
const PUT_SIGNED = "/v1/contracts/{cA2}/parties/{ownPartyA2}/participants/{organizerA2}";
const CREATE = "/v1/contracts/create";
const title = (t: string) => () => ({ title: t });
const create = (workspace: string, template: string) => (i: Ids) => ({ workspace_id: i[workspace], template_id: i[template], name: "Access control" });

const READS: Case[] = [
  // Lists: a member sees exactly their workspaces' rows, in `data` and in `count`.
  { who: "editorA", path: "/v1/workspaces", expect: 200, also: (r) => { exactly("A")(r); permissions(true)(r); } },
  { who: "viewerA", path: "/v1/workspaces", expect: 200, also: (r) => { exactly("A")(r); permissions(false)(r); } },
  { who: "editorB", path: "/v1/workspaces", expect: 200, also: exactly("B") },
  { who: "admin", path: "/v1/workspaces?limit=100", expect: 200, also: everything("workspace") },
  { who: "anonymous", path: "/v1/workspaces", expect: 200, also: everything("workspace") },
  { who: "viewerSession", path: "/v1/workspaces", expect: 200, also: exactly("A") },

  { who: "editorA", path: "/v1/users", expect: 200, also: exactly("editorA", "viewerA", "inactiveA") },
  { who: "viewerA", path: "/v1/users", expect: 200, also: exactly("editorA", "viewerA", "inactiveA") },
  { who: "editorB", path: "/v1/users", expect: 200, also: exactly("editorB") },
  { who: "admin", path: "/v1/users", expect: 200, also: everything("user") },
  { who: "anonymous", path: "/v1/users", expect: 200, also: everything("user") },

  { who: "editorA", path: "/v1/templates", expect: 200, also: exactly("tplA", "tplAB") },
  { who: "viewerA", path: "/v1/templates", expect: 200, also: exactly("tplA", "tplAB") },
  { who: "editorB", path: "/v1/templates", expect: 200, also: exactly("tplB", "tplAB") },
  { who: "editorA", path: "/v1/templates?workspace_id={B}", expect: 200, also: empty },
  { who: "editorB", path: "/v1/templates?workspace_id={A}", expect: 200, also: empty },
  { who: "admin", path: "/v1/templates?workspace_id={A}", expect: 200, also: exactly("tplA", "tplAB") },
  { who: "anonymous", path: "/v1/templates?workspace_id={B}", expect: 200, also: exactly("tplB", "tplAB") },
  { who: "admin", path: "/v1/templates", expect: 200, also: everything("template") },

  { who: "editorA", path: "/v1/templates/{tplA}", expect: 200 },
  // A template usable in A and B lists to A's members only the workspace they see.
  { who: "viewerA", path: "/v1/templates/{tplAB}", expect: 200, also: (r) => expect(r.json.workspaces.map((w: { id: number }) => w.id)).toEqual([ids.A]) },
  { who: "editorB", path: "/v1/templates?workspace_id={B}", expect: 200, also: (r) => {
    const tplAB = r.json.data.find((t: { id: number }) => t.id === ids.tplAB);
    expect(tplAB.workspaces.map((w: { id: number }) => w.id)).toEqual([ids.B]);
  } },
  { who: "admin", path: "/v1/templates/{tplAB}", expect: 200, also: (r) => expect(r.json.workspaces.map((w: { id: number }) => w.id)).toEqual([ids.A, ids.B]) },
  { who: "editorB", path: "/v1/templates/{tplA}", expect: 404, code: 4040001, also: sameAsMissing("editorB", "/v1/templates/{missing}") },
  { who: "editorA", path: "/v1/templates/{tplB}", expect: 404, code: 4040001, also: sameAsMissing("editorA", "/v1/templates/{missing}") },
  { who: "admin", path: "/v1/templates/{tplB}", expect: 200 },
  { who: "anonymous", path: "/v1/templates/{tplA}", expect: 200 },
  { who: "admin", path: "/v1/templates/{missing}", expect: 404, code: 4040001 },

  // Template types name kinds of documents, not anything of a workspace: every caller reads them.
  ...MEMBERS.map((who): Case => ({ who, path: "/v1/template_types?limit=100", expect: 200, also: everything("templateType") })),
  ...MEMBERS.map((who): Case => ({ who, path: "/v1/template_types/{type}", expect: 200 })),
  { who: "editorB", path: "/v1/template_types/{missing}", expect: 404, code: 4040001 },

  { who: "editorA", path: "/v1/contracts", expect: 200, also: exactly("cA", "cA2") },
  { who: "viewerA", path: "/v1/contracts", expect: 200, also: exactly("cA", "cA2") },
  { who: "editorB", path: "/v1/contracts", expect: 200, also: exactly("cB") },
  { who: "viewerSession", path: "/v1/contracts", expect: 200, also: exactly("cA", "cA2") },
  { who: "editorA", path: "/v1/contracts?workspace_id={B}", expect: 200, also: empty },
  { who: "editorB", path: "/v1/contracts?workspace_id={A}", expect: 200, also: empty },
  { who: "editorB", path: "/v1/contracts?workspace_id={A}&state=draft", expect: 200, also: empty },
  { who: "editorA", path: "/v1/contracts?state=signed", expect: 200, also: exactly("cA2") },
  { who: "viewerA", path: "/v1/contracts?workspace_id={A}&state=draft&sort=-name", expect: 200, also: exactly("cA") },
  { who: "admin", path: "/v1/contracts?workspace_id={A}", expect: 200, also: exactly("cA", "cA2") },
  { who: "anonymous", path: "/v1/contracts?workspace_id={B}", expect: 200, also: exactly("cB") },
  {
    who: "editorA", path: "/v1/contracts?limit=1", expect: 200,
    // Paging does not widen the count either.
    also: (r) => { expect(r.json.count).toBe(2); expect(r.json.data).toHaveLength(1); },
  },

  { who: "editorA", path: "/v1/contracts/{cA}", expect: 200 },
  { who: "viewerA", path: "/v1/contracts/{cA2}", expect: 200 },
  { who: "admin", path: "/v1/contracts/{cB}", expect: 200 },
  { who: "anonymous", path: "/v1/contracts/{cA}", expect: 200 },
  { who: "viewerSession", path: "/v1/contracts/{cA}", expect: 200 },
  { who: "editorB", path: "/v1/contracts/{cA}", expect: 404, code: 4040001, also: sameAsMissing("editorB", "/v1/contracts/{missing}") },
  { who: "viewerA", path: "/v1/contracts/{cB}", expect: 404, code: 4040001, also: sameAsMissing("viewerA", "/v1/contracts/{missing}") },
  { who: "admin", path: "/v1/contracts/{missing}", expect: 404, code: 4040001 },

  { who: "editorA", path: "/v1/contracts/{cA}/parties", expect: 200, also: (r) => expect(r.json.count).toBe(2) },
  { who: "viewerA", path: "/v1/contracts/{cA}/parties?limit=all", expect: 200 },
  { who: "editorB", path: "/v1/contracts/{cA}/parties", expect: 404, code: 4040001, also: sameAsMissing("editorB", "/v1/contracts/{missing}/parties") },
  { who: "admin", path: "/v1/contracts/{cB}/parties", expect: 200 },

  { who: "editorA", path: "/v1/contracts/{cA}/parties/{partyA}", expect: 200 },
  { who: "editorB", path: "/v1/contracts/{cA}/parties/{partyA}", expect: 404, code: 4040001, also: sameAsMissing("editorB", "/v1/contracts/{missing}/parties/{partyA}") },
  // A party of another contract under a contract the caller sees: 404, never the other row.
  { who: "admin", path: "/v1/contracts/{cA}/parties/{partyB}", expect: 404, code: 4040001 },
  { who: "editorB", path: "/v1/contracts/{cB}/parties/{partyA}", expect: 404, code: 4040001, also: sameAsMissing("editorB", "/v1/contracts/{cB}/parties/{missing}") },
  { who: "anonymous", path: "/v1/contracts/{cB}/parties/{partyB}", expect: 200 },

  { who: "editorA", path: PUT_A, expect: 200, also: (r) => expect(r.headers.get("etag")).toMatch(/^"/) },
  { who: "viewerA", path: PUT_A, expect: 200 },
  { who: "admin", path: PUT_B, expect: 200 },
  { who: "editorB", path: PUT_A, expect: 404, code: 4040001, also: sameAsMissing("editorB", "/v1/contracts/{missing}/parties/{partyA}/participants/{participantA}") },
  { who: "editorA", path: "/v1/contracts/{cA}/parties/{partyA}/participants/{participantB}", expect: 404, code: 4040001 },
  { who: "admin", path: "/v1/contracts/{cB}/parties/{partyA}/participants/{participantA}", expect: 404, code: 4040001 },

  { who: "editorA", path: "/v1/contracts/{cA}/data_fields", expect: 200, also: (r) => expect(r.json.count).toBe(1) },
  { who: "viewerA", path: "/v1/contracts/{cA}/data_fields/{fieldA}", expect: 200 },
  { who: "editorB", path: "/v1/contracts/{cA}/data_fields", expect: 404, code: 4040001, also: sameAsMissing("editorB", "/v1/contracts/{missing}/data_fields") },
  { who: "editorB", path: "/v1/contracts/{cA}/data_fields/{fieldA}", expect: 404, code: 4040001, also: sameAsMissing("editorB", "/v1/contracts/{missing}/data_fields/{fieldA}") },
  { who: "admin", path: "/v1/contracts/{cB}/data_fields/{fieldA}", expect: 404, code: 4040001 },
  { who: "anonymous", path: "/v1/contracts/{cB}/data_fields/{fieldB}", expect: 200 },

  // Public routes answer everyone, even with credentials that would be refused elsewhere.
  ...[...MEMBERS, ...REFUSED.map(([who]) => who)].flatMap((who) => PUBLIC_GETS.map((path): Case => ({ who, path, expect: 200 }))),

  // Refused credentials: 401 on every route that needs a caller, before anything else is checked.
  ...REFUSED.flatMap(([who, code]) => AUTHENTICATED_GETS.map((path): Case => ({ who, path, expect: 401, code }))),
  ...REFUSED.flatMap(([who, code]): Case[] => [
    { who, method: "PUT", path: PUT_A, body: title("refused"), expect: 401, code, also: unchangedTitle("participantA") },
    { who, method: "POST", path: CREATE, body: create("A", "tplA"), expect: 401, code, also: nothingCreated },
    // Also for ids that do not exist: nothing to learn about them without valid credentials.
    { who, path: "/v1/contracts/{missing}", expect: 401, code },
  ]),

  // The web app's token management is for an admin's session only, never for an API token.
  { who: "admin", path: "/api/tokens", expect: 401, code: 4010000 },
  { who: "anonymous", path: "/api/tokens", expect: 401, code: 4010000 },
  { who: "viewerSession", path: "/api/tokens", expect: 403, code: 4030002 },
  { who: "viewerSession", method: "POST", path: "/api/tokens", body: () => ({ name: "not allowed" }), expect: 403, code: 4030002 },
  { who: "adminSession", path: "/api/tokens", expect: 200 },
  // Creating or revoking one needs the admin's session from the app's own page: an API token
  // (no Origin, no session) and a viewer's session are refused, and the token stays live.
  { who: "admin", method: "POST", path: "/api/tokens", body: () => ({ name: "by token" }), expect: 403, code: 4030003 },
  { who: "admin", method: "DELETE", path: "/api/tokens/{liveToken}", expect: 403, code: 4030003, also: tokenIsLive },
  { who: "viewerSession", method: "DELETE", path: "/api/tokens/{liveToken}", expect: 403, code: 4030002, also: tokenIsLive },
  { who: "viewerSession", method: "DELETE", path: "/api/tokens/{missing}", expect: 403, code: 4030002 },
];

const WRITES: Case[] = [
  // The wrong role: 403, and nothing changes. Outside reach: 404, and nothing changes.
  { who: "viewerA", method: "PUT", path: PUT_A, body: title("by viewer"), expect: 403, code: 4030001, also: unchangedTitle("participantA") },
  { who: "viewerSession", method: "PUT", path: PUT_A, body: title("by viewer"), expect: 403, code: 4030001, also: unchangedTitle("participantA") },
  // A viewer learns nothing about the state either: the role is checked before "signed" (409).
  { who: "viewerA", method: "PUT", path: PUT_SIGNED, body: title("by viewer"), expect: 403, code: 4030001 },
  { who: "editorB", method: "PUT", path: PUT_A, body: title("by B"), expect: 404, code: 4040001, also: unchangedTitle("participantA") },
  { who: "editorA", method: "PUT", path: PUT_B, body: title("by A"), expect: 404, code: 4040001, also: unchangedTitle("participantB") },
  // A party and participant of B's contract named under A's contract: 404, B's row untouched.
  { who: "editorA", method: "PUT", path: "/v1/contracts/{cA}/parties/{partyB}/participants/{participantB}", body: title("by A"), expect: 404, code: 4040001, also: unchangedTitle("participantB") },
  { who: "viewerA", method: "PUT", path: "/v1/contracts/{cA}/parties/{partyA}/participants/{missing}", body: title("x"), expect: 404, code: 4040001 },

  { who: "viewerA", method: "POST", path: CREATE, body: create("A", "tplA"), expect: 403, code: 4030001, also: nothingCreated },
  { who: "viewerSession", method: "POST", path: CREATE, body: create("A", "tplAB"), expect: 403, code: 4030001, also: nothingCreated },
  { who: "editorB", method: "POST", path: CREATE, body: create("A", "tplAB"), expect: 404, code: 4040001, also: nothingCreated },
  { who: "editorA", method: "POST", path: CREATE, body: create("B", "tplAB"), expect: 404, code: 4040001, also: async (r) => {
    await nothingCreated();
    // The same answer as for a workspace that does not exist.
    const missing = await call("editorA", "POST", CREATE, create("missing", "tplAB")(ids));
    const shape = (x: Res) => ({ status: x.status, code: x.json.error_code, problems: x.json.parameter_problems });
    expect(shape(r)).toEqual(shape(missing));
  } },
  { who: "editorA", method: "POST", path: CREATE, body: create("A", "tplB"), expect: 404, code: 4040001, also: nothingCreated },

  // The right role changes exactly what it asked for.
  { who: "editorA", method: "PUT", path: PUT_A, body: title("by editor A"), expect: 200, also: titleIs("participantA", "by editor A") },
  { who: "editorB", method: "PUT", path: PUT_B, body: title("by editor B"), expect: 200, also: titleIs("participantB", "by editor B") },
  { who: "admin", method: "PUT", path: PUT_A, body: title("by admin"), expect: 200, also: titleIs("participantA", "by admin") },
  { who: "anonymous", method: "PUT", path: PUT_B, body: title("by anonymous"), expect: 200, also: titleIs("participantB", "by anonymous") },
  { who: "adminSession", method: "PUT", path: PUT_A, body: title("by session"), expect: 200, also: titleIs("participantA", "by session") },
  { who: "editorA", method: "POST", path: CREATE, body: create("A", "tplA"), expect: 200, also: createdIn("A", "editorA") },
  { who: "editorB", method: "POST", path: CREATE, body: create("B", "tplAB"), expect: 200, also: createdIn("B", "editorB") },
  { who: "admin", method: "POST", path: CREATE, body: create("B", "tplB"), expect: 200, also: createdIn("B", "admin") },
  { who: "anonymous", method: "POST", path: CREATE, body: create("A", "tplAB"), expect: 200, also: createdIn("A", null) },
];

const label = (c: Case) => `${c.who} ${c.method ?? "GET"} ${c.path} → ${c.expect}`;

async function run(c: Case) {
  before = { A: await contractsIn("A"), B: await contractsIn("B") };
  const res = await call(c.who, c.method ?? "GET", fill(c.path), c.body?.(ids));
  expect(res.status, res.text.slice(0, 500)).toBe(c.expect);
  if (c.expect >= 400) {
    // Every refusal is the one error shape, with a request id the log line shares.
    expect(res.json).toMatchObject({ status: c.expect, request_id: res.headers.get("x-request-id") });
    if (c.code) expect(res.json.error_code).toBe(c.code);
  }
  await c.also?.(res, ctx);
}

describe("reads and refusals", () => {
  test.each(READS.map((c) => [label(c), c] as const))("%s", async (_, c) => run(c));
});

describe("writes", () => {
  test.each(WRITES.map((c) => [label(c), c] as const))("%s", async (_, c) => run(c));
});

describe("API tokens", () => {
  // Every table of the database, as text, searched for a secret.
  async function rowsContaining(secret: string): Promise<string[]> {
    const db = serverDb();
    const tables = await db.$queryRaw<{ name: string }[]>`
      SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
    expect(tables.length).toBeGreaterThan(10);
    const hits: string[] = [];
    for (const { name } of tables) {
      const [row] = await db.$queryRawUnsafe<{ n: bigint | number }[]>(
        `SELECT count(*) AS n FROM "${name.replace(/"/g, '""')}" t WHERE strpos(t::text, $1) > 0`,
        secret,
      );
      if (Number(row?.n ?? 0) > 0) hits.push(name);
    }
    return hits;
  }

  test("a token made on the tokens page is shown once and stored only as its SHA-256 hash", async () => {
    const created = await call("adminSession", "POST", "/api/tokens", { name: "access control" });
    expect(created.status, created.text).toBe(201);
    const token: string = created.json.token;
    secrets.created = token;
    expect(token.length).toBeGreaterThanOrEqual(32);

    const row = await serverDb().apiToken.findUniqueOrThrow({ where: { id: created.json.id } });
    expect(row.tokenHash).toBe(createHash("sha256").update(token, "utf8").digest("hex"));
    expect(token.startsWith(row.prefix) && row.prefix.length <= token.length / 2).toBe(true);
    expect(await rowsContaining(token)).toEqual([]);
    // The seeded token and the revoked one are stored the same way.
    expect(await rowsContaining(TEST_API_TOKEN)).toEqual([]);
    expect(await rowsContaining(secrets.revoked)).toEqual([]);

    // Never shown again: not in the list, and the list has no hashes either.
    const list = await call("adminSession", "GET", "/api/tokens");
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(token);
    expect(list.text).not.toContain(row.tokenHash);
    expect(list.json.data.find((t: { id: number }) => t.id === row.id)).toMatchObject({ name: "access control", prefix: row.prefix });

    // It works: the server finds it by its hash.
    const res = await fetch(`${baseUrl()}/v1/workspaces`, { headers: { "x-service-api-token": token } });
    expect(res.status).toBe(200);
    bodies.push(await res.text());
  });

  test("passwords are stored only as scrypt hashes", async () => {
    const accounts: [string, string][] = [
      [emails.admin, PASSWORDS.admin],
      [emails.viewerA, PASSWORDS.viewerA],
      ["admin@example.com", TEST_ADMIN_PASSWORD], // stored by the server's own first start
    ];
    for (const [email, password] of accounts) {
      expect(await rowsContaining(password)).toEqual([]);
      const account = await serverDb().account.findFirstOrThrow({ where: { providerId: "credential", user: { email } } });
      // better-auth's format: hex salt (16 bytes) ":" hex scrypt key (64 bytes, N=16384, r=16, p=1),
      // recomputed here with node's own scrypt, so a plain or merely salted SHA hash fails.
      const [salt, key] = (account.password ?? "").split(":");
      expect(account.password, email).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
      const derived = scryptSync(password.normalize("NFKC"), salt!, 64, { N: 16384, r: 16, p: 1, maxmem: 128 * 16384 * 16 * 2 });
      expect(derived.toString("hex"), `${email}: the stored key is the password's scrypt key`).toBe(key);
    }
  });
});

afterAll(() => {
  // No answer of this file ever carried a token or a password, except the one creating a token.
  const secretValues = [TEST_API_TOKEN, secrets.revoked, PASSWORDS.admin, PASSWORDS.viewerA, TEST_ADMIN_PASSWORD].filter(Boolean);
  const leaks = bodies.flatMap((body) => secretValues.filter((s) => body.includes(s)).map((s) => `${s.slice(0, 6)}… in ${body.slice(0, 120)}`));
  const created = secrets.created ? bodies.filter((b) => b.includes(secrets.created!)).length : 1;
  expect(leaks).toEqual([]);
  expect(created).toBe(1);
  expect(bodies.length).toBeGreaterThan(200);
});
