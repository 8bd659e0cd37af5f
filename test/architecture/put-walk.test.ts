// docs/architecture.md "A PUT's walk": the files whose functions run during one PUT participant are
// exactly the ones the section lists, measured with V8's precise coverage (callCount) around one
// request after a warm-up. Red when a file joins or leaves the walk without the doc saying so.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Session } from "node:inspector/promises";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";

const opened = vi.hoisted(() => ({ prisma: undefined as unknown }));
vi.mock("@/lib/db", async (original) => ({ ...(await original<object>()), getPrisma: async () => opened.prisma, readyPrisma: () => opened.prisma }));

import { createApiToken, createContract, createTemplate, createUser, createWorkspace } from "@/lib/db/seed/factories";
import { PUT } from "@/app/v1/contracts/[contract_id]/parties/[party_id]/participants/[participant_id]/route";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Not counted (the section says why): the settings parsed at start, the embedded database's socket, the generated client. */
const NOT_COUNTED = [/^lib\/env\.ts$/, /^lib\/db\/embedded\.ts$/, /^lib\/generated\//];
/** Counted only when the token's lease runs low (the section's step 10). */
const SOMETIMES = ["lib/db/lease-quota.ts"];

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  opened.prisma = db.prisma;
});
afterAll(() => db.cleanup());

/** The files the section lists, in its order: the first path of each numbered step. */
function documentedWalk(): string[] {
  const doc = readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
  const section = doc.slice(doc.indexOf("## A PUT's walk"), doc.indexOf("\n## ", doc.indexOf("## A PUT's walk") + 1));
  return [...section.matchAll(/^\d+\. `([^`]+)`/gm)].map((m) => m[1]!);
}

it("passes through the files docs/architecture.md lists, and no other", async () => {
  const prisma = db.prisma;
  const workspace = await createWorkspace(prisma, { name: "Walk" });
  const template = await createTemplate(prisma, { workspaceIds: [workspace.id], deliveryChannels: ["email", "sms"], signMethods: ["standard_esign"], twoStepMethods: ["none"] });
  const owner = await createUser(prisma, { memberships: [{ workspaceId: workspace.id, role: "editor" }] });
  const token = "put-walk-token-0123456789abcdef";
  await createApiToken(prisma, { token });
  const contract = await createContract(prisma, {
    workspaceId: workspace.id,
    templateId: template.id,
    owner,
    counterparties: [{ type: "company", name: "Buyer AB", participants: [{ name: "Ann", email: "ann@example.org" }] }],
  });
  const party = (await prisma.party.findFirstOrThrow({ where: { contractId: contract.id, myParty: false }, include: { participants: true } }))!;
  const participant = party.participants[0]!;
  const ids = { contract_id: String(contract.id), party_id: String(party.id), participant_id: String(participant.id) };
  let version = participant.version;
  const put = async (title: string) => {
    const response = await PUT(
      new Request(`http://localhost/v1/contracts/${contract.id}/parties/${party.id}/participants/${participant.id}`, {
        method: "PUT",
        headers: { "x-service-api-token": token, "content-type": "application/json", "if-match": `"p${participant.id}-v${version}"` },
        body: JSON.stringify({ title }),
      }),
      { params: Promise.resolve(ids) },
    );
    expect(response.status).toBe(200);
    version++;
  };
  // Every module loaded, every lazily made constant made.
  for (const title of ["one", "two", "three"]) await put(title);

  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Debugger.enable");
    await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
    await session.post("Profiler.takePreciseCoverage"); // resets the counts
    await put("four");
    const { result } = await session.post("Profiler.takePreciseCoverage");
    const walked: string[] = [];
    for (const script of result) {
      if (!script.url.startsWith(`file://${ROOT}/`)) continue;
      const file = script.url.slice(`file://${ROOT}/`.length);
      if (file.startsWith("node_modules/") || file.startsWith("test/") || NOT_COUNTED.some((re) => re.test(file))) continue;
      // A module's own body (offset 0) runs at import; an export's getter (the test runner's ES module
      // wrapper) is the reading of a constant, not code of the file.
      const ran = script.functions.filter((f) => f.ranges[0]!.count > 0 && f.ranges[0]!.startOffset > 0);
      if (ran.length === 0) continue;
      const { scriptSource } = await session.post("Debugger.getScriptSource", { scriptId: script.scriptId });
      const own = ran.filter((f) => !/^\(\) => \{ try \{ return [\w$]+ \} catch \{\} \}/.test(scriptSource.slice(f.ranges[0]!.startOffset)));
      if (own.length > 0) walked.push(file.replace(/^app\/v1\/contracts\/\[contract_id\]\/parties\/\[party_id\]\//, "app/v1/…/"));
    }
    const documented = documentedWalk();
    expect(documented.length).toBeGreaterThan(0);
    expect(walked.filter((file) => !SOMETIMES.includes(file)).sort()).toEqual([...documented].sort());
  } finally {
    await session.post("Profiler.stopPreciseCoverage");
    session.disconnect();
  }
});
