// docs/architecture.md "A PUT's walk": the files whose functions run during one PUT participant are
// exactly the ones the section lists, measured with V8's precise coverage (callCount) around one
// request after a warm-up, and the calls between them go one way (no file is entered again by a
// file it called). Red when a file joins or leaves the walk without the doc saying so, or when code
// calls back up.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Session } from "node:inspector/promises";
import { Session as SyncSession } from "node:inspector";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";

const opened = vi.hoisted(() => ({ prisma: undefined as unknown }));
vi.mock("@/lib/db", async (original) => ({ ...(await original<object>()), getPrisma: async () => opened.prisma, readyPrisma: () => opened.prisma }));

import { createApiToken, createContract, createTemplate, createUser, createWorkspace } from "@/lib/db/seed/factories";
import { PUT } from "@/app/v1/contracts/[contract_id]/parties/[party_id]/participants/[participant_id]/route";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Not counted (the section says why): the settings parsed at start, the embedded database's socket, the generated client. */
const NOT_COUNTED = [/^lib\/env\.ts$/, /^lib\/db\/embedded\.ts$/, /^lib\/generated\//];

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
  /** Each walked file's functions that ran, by script (for the second measure, the entries). */
  const ranByScript = new Map<string, { starts: number[]; source: string }>();
  /** Every script's URL by its id (a paused frame names its script by id only). */
  const urlOf = new Map<string, string>();
  try {
    await session.post("Profiler.enable");
    await session.post("Debugger.enable");
    await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
    await session.post("Profiler.takePreciseCoverage"); // resets the counts
    await put("four");
    const { result } = await session.post("Profiler.takePreciseCoverage");
    const walked: string[] = [];
    for (const script of result) {
      urlOf.set(script.scriptId, script.url);
      const file = projectFile(script.url);
      if (file === null || NOT_COUNTED.some((re) => re.test(file))) continue;
      // A module's own body (offset 0) runs at import; an export's getter (the test runner's ES module
      // wrapper) is the reading of a constant, not code of the file.
      const ran = script.functions.filter((f) => f.ranges[0]!.count > 0 && f.ranges[0]!.startOffset > 0);
      if (ran.length === 0) continue;
      const { scriptSource } = await session.post("Debugger.getScriptSource", { scriptId: script.scriptId });
      const own = ran.filter((f) => !/^\(\) => \{ try \{ return [\w$]+ \} catch \{\} \}/.test(scriptSource.slice(f.ranges[0]!.startOffset)));
      if (own.length === 0) continue;
      walked.push(file);
      ranByScript.set(script.scriptId, { starts: own.map((f) => f.ranges[0]!.startOffset), source: scriptSource });
    }
    const documented = documentedWalk();
    expect(documented.length).toBeGreaterThan(0);
    expect.soft(walked.sort()).toEqual([...documented].sort());
  } finally {
    await session.post("Profiler.stopPreciseCoverage");
    session.disconnect();
  }

  // The second measure: which file calls into which. A breakpoint at the start of every function that
  // ran; at each stop, the nearest project file below on the stack is the caller (library frames in
  // between, such as pg calling the pool's connect, are looked through). No file may be entered again
  // by a file it called, directly or through others: the calls between files go one way, down.
  const tracer = new SyncSession();
  tracer.connect();
  const calls = new Map<string, Set<string>>();
  /** The files in the order each was first entered; and those entered with no project file below, not even across an await. */
  const entered: string[] = [];
  const fromOutside = new Set<string>();
  try {
    type TFrames = { callFrames: { location?: { scriptId: string }; scriptId?: string }[]; parent?: TFrames };
    const fileOf = (frame: TFrames["callFrames"][number]) => projectFile(urlOf.get(frame.location?.scriptId ?? frame.scriptId ?? "") ?? "");
    tracer.on("Debugger.paused", ({ params }) => {
      const [top, ...below] = (params.callFrames as TFrames["callFrames"]).map(fileOf);
      let caller = below.find((file) => file !== null) ?? null;
      // Called by a library after an await (a transaction's body, a stream's start): the async stack says by whom.
      for (let trace = params.asyncStackTrace as TFrames | undefined; caller === null && trace; trace = trace.parent) {
        caller = trace.callFrames.map(fileOf).find((file) => file !== null) ?? null;
      }
      if (top) {
        if (!entered.includes(top)) entered.push(top);
        if (caller === null) fromOutside.add(top);
        else if (caller !== top) {
          if (!calls.has(caller)) calls.set(caller, new Set());
          calls.get(caller)!.add(top);
        }
      }
      tracer.post("Debugger.resume");
    });
    const post = <T>(method: string, params: object) =>
      new Promise<T>((resolve, reject) => tracer.post(method, params, (error, answer) => (error ? reject(error) : resolve(answer as T))));
    await post("Debugger.enable", {});
    await post("Debugger.setAsyncCallStackDepth", { maxDepth: 32 });
    for (const [scriptId, { starts, source }] of ranByScript) {
      for (const offset of starts) {
        const at = lineAndColumn(source, offset);
        // The first place to stop inside the function itself (its start may be a position of the enclosing one).
        const { locations } = await post<{ locations: { lineNumber: number; columnNumber: number }[] }>("Debugger.getPossibleBreakpoints", {
          start: { scriptId, ...at },
          restrictToFunction: true,
        });
        expect(locations.length, `a place to stop in a function at ${urlOf.get(scriptId)}:${at.lineNumber + 1}`).toBeGreaterThan(0);
        await post("Debugger.setBreakpoint", { location: { scriptId, ...locations[0]! } });
      }
    }
    await put("five");
  } finally {
    tracer.disconnect();
  }
  // Every file of the walk was seen, in the order the section gives, and only the wrapper is entered from outside the project.
  expect(entered).toEqual(documentedWalk());
  expect([...fromOutside]).toEqual(["lib/api/endpoint.ts"]);
  expect(calls.size).toBeGreaterThan(0);
  expect(backAndForth(calls)).toEqual([]);
});

/** A path under the repository for a script's URL, the route's folders shortened; null for libraries and tests. */
function projectFile(url: string): string | null {
  if (!url.startsWith(`file://${ROOT}/`)) return null;
  const file = url.slice(`file://${ROOT}/`.length);
  if (file.startsWith("node_modules/") || file.startsWith("test/")) return null;
  return file.replace(/^app\/v1\/contracts\/\[contract_id\]\/parties\/\[party_id\]\//, "app/v1/…/");
}

function lineAndColumn(source: string, offset: number): { lineNumber: number; columnNumber: number } {
  const before = source.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { lineNumber: before.split("\n").length - 1, columnNumber: offset - lineStart };
}

/** Every call from a file into one that is calling it, directly or through others: `a → b → … → a`. */
function backAndForth(calls: Map<string, Set<string>>): string[] {
  const cycles: string[] = [];
  const reaches = (from: string, to: string, seen = new Set<string>()): string[] | null => {
    for (const next of calls.get(from) ?? []) {
      if (next === to) return [from, next];
      if (seen.has(next)) continue;
      seen.add(next);
      const path = reaches(next, to, seen);
      if (path) return [from, ...path];
    }
    return null;
  };
  for (const [caller, callees] of calls) {
    for (const callee of callees) {
      const back = reaches(callee, caller);
      if (back) cycles.push([caller, ...back].join(" → "));
    }
  }
  return cycles;
}
