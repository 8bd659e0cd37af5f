// Issue 37 over HTTP: signing order (create, PUT, readiness, the signing API's turn check), delegation
// from the signing page's API, and POST /v1/contracts/{id}/withdraw. Every refusal changes nothing.
import { request } from "node:http";
import { beforeAll, describe, expect, test } from "vitest";
import { createContract, createWorkspaceWithTemplate } from "@/lib/db/seed/factories";
import { api, baseUrl, serverDb } from "@/test/helpers/http";

let ws: { id: number };
let template: { id: number };
let editor: { id: number; name: string; email: string };
let viewer: { id: number; email: string };

beforeAll(async () => {
  ({ workspace: ws, template, members: { editor, viewer } } = await serverDb().$transaction((tx) =>
    createWorkspaceWithTemplate(tx, { workspace: { name: `Order ${Date.now()}` }, template: { twoStepMethods: ["none", "email"] }, members: ["editor", "viewer"] }),
  ));
});

const unique = () => `${Date.now()}${Math.random().toString(36).slice(2, 6)}`;

/** POST /v1/contracts/create with counterparties of one signatory each (individuals, or companies), with these orders. */
function create(orders: (number | null | undefined)[], signingOrder: "ordered" | "parallel" = "ordered", type: "individual" | "company" = "individual") {
  return api("/v1/contracts/create", {
    method: "POST",
    email: editor.email,
    body: {
      workspace_id: ws.id,
      template_id: template.id,
      signing_order: signingOrder,
      parties: orders.map((sign_order, i) => {
        const participant = { name: `Person ${i}`, email: `p${i}.${unique()}@example.org`, signatory: true, ...(sign_order === undefined ? {} : { sign_order }) };
        return type === "individual" ? { type, participant } : { type, name: `Company ${i}`, participants: [participant] };
      }),
    },
  });
}

async function linkOf(contractId: number, participantId: number) {
  const p = await serverDb().participant.findUniqueOrThrow({ where: { id: participantId } });
  const res = await api(`/v1/contracts/${contractId}/parties/${p.partyId}/participants/${p.id}/signing_link`, { email: editor.email });
  expect(res.status).toBe(200);
  return (res.json.url as string).split("/sign/")[1]!;
}

function signApi(token: string, action: "" | "/sign" | "/decline" | "/code" | "/delegate", body?: unknown) {
  return api(`/api/sign/${token}${action}`, { token: null, method: action === "" ? "GET" : "POST", ...(body === undefined ? {} : { body }), headers: { origin: baseUrl() } });
}

/** Counterparty participants of a contract, in the order they were sent. */
async function people(contractId: number) {
  return serverDb().participant.findMany({ where: { party: { contractId, myParty: false } }, orderBy: { id: "asc" } });
}

describe("signing order", () => {
  test("create answers signing_order and sign_order; gaps, missing numbers, 0 and negatives are 400s naming the field, and nothing is created", async () => {
    // This file's own workspace: other files create contracts on the same server meanwhile.
    const before = await serverDb().contract.count({ where: { workspaceId: ws.id } });
    const gap = await create([1, 3]);
    expect(gap.status).toBe(400);
    expect(Object.keys(gap.json.parameter_problems)).toEqual(["parties.1.participant.sign_order"]);
    const missing = await create([1, undefined]);
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.json.parameter_problems)).toEqual(["parties.1.participant.sign_order"]);
    for (const bad of [0, -2]) {
      const res = await create([1, bad]);
      expect(res.status).toBe(400);
      expect(Object.keys(res.json.parameter_problems)).toEqual(["parties.1.participant.sign_order"]);
    }
    expect(await serverDb().contract.count({ where: { workspaceId: ws.id } })).toBe(before);

    const ok = await create([1, 1, 2]);
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ signing_order: "ordered", delegation_allowed: true });
    expect(ok.json.parties.slice(1).map((p: { participant: { sign_order: number } }) => p.participant.sign_order)).toEqual([1, 1, 2]);
  });

  test("the out-of-turn signatory sees the waiting state and is refused with 409 not_your_turn; the next stage opens with the last signature of the one before", async () => {
    const created = await create([1, 2]);
    const id = created.json.id as number;
    expect((await api(`/v1/contracts/${id}/publish`, { method: "POST", body: {}, email: editor.email })).status).toBe(200);
    const [first, second] = await people(id);
    const [t1, t2] = [await linkOf(id, first!.id), await linkOf(id, second!.id)];
    const page = await signApi(t2, "");
    expect(page.status).toBe(200);
    expect(page.json.you).toMatchObject({ your_turn: false, sign_order: 2 });
    for (const [action, body] of [["/sign", { full_name: second!.name }], ["/decline", {}]] as const) {
      const res = await signApi(t2, action, body);
      expect(res.status).toBe(409);
      expect(res.json.error_code).toBe(4090014);
    }
    expect((await serverDb().participant.findUniqueOrThrow({ where: { id: second!.id } })).signState).toBe("undecided");
    expect(await serverDb().emailMessage.count({ where: { participantId: second!.id, kind: "invitation" } })).toBe(0);

    expect((await signApi(t1, "/sign", { full_name: first!.name })).status).toBe(200);
    expect(await serverDb().emailMessage.count({ where: { participantId: second!.id, kind: "invitation" } })).toBe(1);
    expect((await signApi(t2, "")).json.you.your_turn).toBe(true);
    const events = await api(`/v1/contracts/${id}/events?limit=100`, { email: editor.email });
    expect(events.json.data.filter((e: { action: string }) => e.action === "contract.stage_start")).toHaveLength(2);
    expect((await signApi(t2, "/sign", { full_name: second!.name })).json).toEqual({ contract_state: "signed" });
  });

  test("PUT sets sign_order while a draft (bad values 400), and refuses it once published (409 signatories_frozen)", async () => {
    const created = await create([1, 2]);
    const id = created.json.id as number;
    const second = (await people(id))[1]!;
    const put = (body: unknown) => api(`/v1/contracts/${id}/parties/${second.partyId}/participants/${second.id}`, { method: "PUT", body, email: editor.email });
    const bad = await put({ sign_order: -1 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.parameter_problems)).toEqual(["sign_order"]);
    const res = await put({ sign_order: 1 });
    expect(res.status).toBe(200);
    expect(res.json.sign_order).toBe(1);
    await put({ sign_order: 2 });
    await api(`/v1/contracts/${id}/publish`, { method: "POST", body: {}, email: editor.email });
    const frozen = await put({ sign_order: 1 });
    expect(frozen.status).toBe(409);
    expect(frozen.json.error_code).toBe(4090021);
  });
});

describe("links in mail a signer's action causes", () => {
  test("are written under the origin the contract was published from, whatever Host the signer sends", async () => {
    const created = await create([1, 2]);
    const id = created.json.id as number;
    expect((await api(`/v1/contracts/${id}/publish`, { method: "POST", body: {}, email: editor.email })).status).toBe(200);
    const [first, second] = await people(id);
    const token = await linkOf(id, first!.id);
    // The front door believes Host (no proxy is trusted here), and the same-origin check compares Origin to it.
    const forged = { host: "evil.example", origin: "http://evil.example", "content-type": "application/json" };
    // node:http, as fetch sends its own Host.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(`${baseUrl()}/api/sign/${token}/sign`, { method: "POST", headers: forged }, (res) => res.resume().on("end", () => resolve(res.statusCode)));
      req.on("error", reject).end(JSON.stringify({ full_name: first!.name }));
    });
    expect(status).toBe(200);
    const mails = await serverDb().emailMessage.findMany({ where: { contractId: id }, select: { kind: true, participantId: true, linkOrigin: true } });
    expect(mails.some((m) => m.kind === "invitation" && m.participantId === second!.id)).toBe(true);
    expect([...new Set(mails.map((m) => m.linkOrigin))]).toEqual([baseUrl()]);
  });
});

describe("delegation through the signing page's API", () => {
  test("hands on to a new participant, kills the old link; an address already in the contract is a 400 that changes nothing", async () => {
    const created = await create([null], "parallel", "company");
    const id = created.json.id as number;
    await api(`/v1/contracts/${id}/publish`, { method: "POST", body: {}, email: editor.email });
    const [delegator] = await people(id);
    const token = await linkOf(id, delegator!.id);
    const taken = await signApi(token, "/delegate", { name: "Me Again", email: delegator!.email.toUpperCase() });
    expect(taken.status).toBe(400);
    expect(taken.json.error_code).toBe(4000040);
    expect(Object.keys(taken.json.parameter_problems)).toEqual(["email"]);
    expect((await signApi(token, "")).status).toBe(200);

    const email = `dele.${unique()}@example.org`;
    const res = await signApi(token, "/delegate", { name: "Dele Gate", email, reason: "On leave" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ delegate_name: "Dele Gate" });
    expect((await signApi(token, "")).status).toBe(404);
    const contract = await api(`/v1/contracts/${id}`, { email: editor.email });
    const all = contract.json.parties.flatMap((p: { participant?: unknown; participants?: unknown[] }) => p.participants ?? [p.participant]);
    const old = all.find((p: { id: number }) => p.id === delegator!.id);
    const delegate = all.find((p: { email: string }) => p.email === email);
    expect(old).toMatchObject({ signatory: false, delegated_to_id: delegate.id });
    expect(delegate).toMatchObject({ signatory: true, name: "Dele Gate" });
    const events = await api(`/v1/contracts/${id}/events?limit=100`, { email: editor.email });
    expect(events.json.data.map((e: { action: string }) => e.action)).toContain("participant.delegate");
  });
});

describe("POST /v1/contracts/{id}/withdraw", () => {
  test("viewers get 403 and drafts 409, changing nothing; editors withdraw a pending contract: withdrawn, links dead, everyone invited told once, still readable", async () => {
    const created = await create([1, 2]);
    const id = created.json.id as number;
    const withdraw = (email: string, body: unknown = {}) => api(`/v1/contracts/${id}/withdraw`, { method: "POST", body, email });
    const draft = await withdraw(editor.email);
    expect(draft.status).toBe(409);
    expect(draft.json.error_code).toBe(4090011);
    await api(`/v1/contracts/${id}/publish`, { method: "POST", body: {}, email: editor.email });
    const [first, second] = await people(id);
    const t1 = await linkOf(id, first!.id);
    const denied = await withdraw(viewer.email);
    expect(denied.status).toBe(403);
    expect((await signApi(t1, "")).status).toBe(200);
    const tooLong = await withdraw(editor.email, { reason: "x".repeat(2001) });
    expect(tooLong.status).toBe(400);
    expect(Object.keys(tooLong.json.parameter_problems)).toEqual(["reason"]);
    // A control character other than a line break (here BEL) is a 400 in the error shape, naming the field; nothing changes.
    const control = await withdraw(editor.email, { reason: "Wrong\u0007price" });
    expect([control.status, control.json.error_code, Object.keys(control.json.parameter_problems)]).toEqual([400, 4000001, ["reason"]]);
    expect((await api(`/v1/contracts/${id}`, { email: editor.email })).json.state).toBe("pending");

    const res = await withdraw(editor.email, { reason: "Wrong price" });
    expect(res.status).toBe(200);
    expect(res.json.state).toBe("withdrawn");
    expect((await signApi(t1, "")).status).toBe(404);
    expect((await signApi(t1, "/sign", { full_name: first!.name })).status).toBe(404);
    const told = await serverDb().emailMessage.findMany({ where: { contractId: id, kind: "withdrawn" } });
    expect(told.map((m) => m.participantId)).toContain(first!.id);
    expect(told.map((m) => m.participantId)).not.toContain(second!.id);
    const again = await withdraw(editor.email);
    expect(again.status).toBe(409);
    expect(await serverDb().emailMessage.count({ where: { contractId: id, kind: "withdrawn" } })).toBe(told.length);
    expect((await api(`/v1/contracts/${id}`, { email: viewer.email })).json.state).toBe("withdrawn");
    const listed = await api(`/v1/contracts?state=withdrawn&workspace_id=${ws.id}`, { email: viewer.email });
    expect(listed.json.data.map((c: { id: number }) => c.id)).toContain(id);
  });
});
