// The sealed signed copy (lib/services/seal): queued by the last signature, built once by a job
// that is safe on several instances and after a crash, checked with poppler's pdfsig, qpdf and
// pdftotext, and told apart from a changed copy by the public verification.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { atTime } from "@/lib/clock";
import type { PrismaClient } from "@/lib/db";
import { createPrismaClient } from "@/lib/db/pool";
import { createContract } from "@/lib/db/seed/factories";
import type { TUserActor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { checkContractChain } from "@/lib/services/audit/check-contract-chain";
import { deleteContract } from "@/lib/services/contracts/delete-contract";
import { publishContract } from "@/lib/services/contracts/publish-contract";
import { addContractFile } from "@/lib/services/files/add-contract-file";
import { fileStore } from "@/lib/services/files/file-store";
import { openContractFile } from "@/lib/services/files/open-contract-file";
import { createSmtpTransport } from "@/lib/services/mail/create-smtp-transport";
import { deliverDueEmails } from "@/lib/services/mail/deliver-email";
import { claimDueSeals } from "@/lib/services/seal/claim-due-seals";
import { sealDueContracts } from "@/lib/services/seal/seal-contracts";
import { verifySealedPdf } from "@/lib/services/seal/verify-sealed-pdf";
import { getSigningLink } from "@/lib/services/signing/get-signing-link";
import { decideByLink } from "@/lib/services/signing/decide-by-link";
import { testDatabaseKind, type TestDatabase } from "@/test/helpers/db";
import { startTestSmtpServer } from "@/test/helpers/smtp";
import { createStaff, createTestWorld, ownerOf } from "@/test/helpers/world";

const ORIGIN = "http://seal.test";
const ATTACHMENT = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
let db: TestDatabase;
let staff: TUserActor;
let ws: { id: number };
let template: { id: number };
let dir: string;

beforeAll(async () => {
  ({ db, ws, template } = await createTestWorld({ workspace: { name: "Nordic Trade" }, template: { dataFields: [{ name: "Price", customId: "price", defaultValue: "100 EUR" }] } }));
  dir = mkdtempSync(path.join(tmpdir(), "seal-test-"));
  staff = await createStaff(db.prisma);
});
afterAll(async () => {
  await db.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** A contract every counterparty signed through their link; its seal is queued. */
async function signedContract(names = ["Åsa Öberg", "Bjørn Ærø"], attachment?: { name: string; bytes: Buffer }) {
  const contract = await createContract(db.prisma, {
    workspaceId: ws.id,
    templateId: template.id,
    name: "Purchase order",
    owner: ownerOf(staff),
    counterparties: names.map((name) => ({ type: "individual" as const, participant: { name, twoStepMethod: "none" as const } })),
  });
  // The term the signatories agree to, which the sealed copy and its certificate state.
  await db.prisma.contract.update({ where: { id: contract.id }, data: { durationType: "recurring", renewalPeriod: "P1Y", noticePeriod: "P3M" } });
  if (attachment) await db.prisma.$transaction((tx) => addContractFile(tx, { contractId: contract.id, type: "attachment", name: attachment.name, contentType: "application/pdf", bytes: attachment.bytes }));
  await publishContract({ db: db.prisma, actor: staff, contractId: contract.id, linkOrigin: ORIGIN });
  const parties = await db.prisma.party.findMany({ where: { contractId: contract.id, myParty: false }, include: { participants: true }, orderBy: { id: "asc" } });
  for (const [i, party] of parties.entries()) {
    const p = party.participants[0]!;
    const { url } = await getSigningLink({ db: db.prisma, actor: staff, contractId: contract.id, partyId: party.id, participantId: p.id, linkOrigin: ORIGIN });
    await decideByLink({
      db: db.prisma,
      token: url.split("/sign/")[1]!,
      decision: { kind: "sign", fullName: p.name },
      client: { ip: `203.0.113.${10 + i}`, userAgent: `TestBrowser/${i + 1}.0` },
    });
  }
  return contract.id;
}

async function sealedBytes(contractId: number): Promise<Buffer> {
  const file = await db.prisma.contractFile.findFirstOrThrow({ where: { contractId, type: "verification" } });
  return Buffer.from(await fileStore().read(db.prisma, file.storageKey!));
}

function tool(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return `${e.stdout ?? ""}${e.stderr ?? ""}`;
  }
}

describe("the last signature queues the seal; the job builds, signs, stores and mails it", () => {
  let id: number;
  let pdf: Buffer;

  beforeAll(async () => {
    id = await signedContract(undefined, { name: "Price list.pdf", bytes: ATTACHMENT });
    expect(await db.prisma.contractSeal.findUniqueOrThrow({ where: { contractId: id } })).toMatchObject({ status: "queued", linkOrigin: ORIGIN });
    const run = await sealDueContracts({ db: db.prisma });
    expect(run).toMatchObject({ claimed: 1, sealed: 1 });
    pdf = await sealedBytes(id);
  });

  it("pdfsig validates the PAdES signature over the whole file; qpdf finds the structure sound", () => {
    const file = path.join(dir, `sealed-${id}.pdf`);
    writeFileSync(file, pdf);
    const sig = tool("pdfsig", [file]);
    expect(sig).toContain("Signature Type: ETSI.CAdES.detached");
    expect(sig).toContain("Total document signed");
    expect(sig).toContain("Signature Validation: Signature is Valid.");
    expect(tool("qpdf", ["--check", file])).toContain("No syntax or stream encoding errors found");
  });

  it("the copy holds the document and the completion certificate: every signer, where they signed from, the chain's last hash", async () => {
    const file = path.join(dir, `sealed-text-${id}.pdf`);
    writeFileSync(file, pdf);
    const text = tool("pdftotext", ["-layout", file, "-"]).replace(/\s+/g, " ");
    for (const expected of ["Price list.pdf", "Purchase order", "Completion certificate", "Åsa Öberg", "Bjørn Ærø", "Olga Owner", "Nordic Trade", "203.0.113.10", "203.0.113.11", "TestBrowser/2.0", "standard_esign", "participant.sign", "contract.sign", "Renewal period: 1 year", "Notice period 3 months", "Duration renewed every 1 year", "on signing"]) {
      expect(text).toContain(expected);
    }
    const seal = await db.prisma.contractSeal.findUniqueOrThrow({ where: { contractId: id } });
    const lastBeforeSeal = await db.prisma.auditEvent.findFirstOrThrow({ where: { contractId: id, action: "contract.sign" } });
    // Long hex strings wrap where the line ends.
    expect(text.replace(/\s/g, "")).toContain(lastBeforeSeal.chainHash!);
    expect(text.replace(/\s/g, "")).toContain(createHash("sha256").update(ATTACHMENT).digest("hex"));
    expect(seal).toMatchObject({ status: "done", sha256: expect.stringMatching(/^[0-9a-f]{64}$/), certificateSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it("the certificate's document SHA-256 is that of the contract PDF the files API serves for the signed contract", async () => {
    const file = path.join(dir, `sealed-hash-${id}.pdf`);
    writeFileSync(file, pdf);
    const text = tool("pdftotext", [file, "-"]).replace(/\s/g, "");
    const contractFile = await db.prisma.contractFile.findFirstOrThrow({ where: { contractId: id, type: "contract" } });
    const served = await openContractFile({ db: db.prisma, actor: staff, contractId: id, fileId: contractFile.id });
    const bytes = Buffer.from(await new Response(served.body).arrayBuffer());
    expect(text).toContain(`DocumentSHA-256${createHash("sha256").update(bytes).digest("hex")}`);
  });

  it("records the verification file, the contract.seal event (chained) and mail with the copy attached to everyone and the organizer", async () => {
    const files = await db.prisma.contractFile.findMany({ where: { contractId: id, type: "verification" } });
    expect(files).toHaveLength(1);
    const events = await db.prisma.auditEvent.findMany({ where: { contractId: id, action: "contract.seal" } });
    expect(events).toHaveLength(1);
    expect(events[0]!.after).toMatchObject({ verification_file_id: files[0]!.id });
    expect(await checkContractChain(db.prisma, id)).toMatchObject({ intact: true });
    const mail = await db.prisma.emailMessage.findMany({ where: { contractId: id, kind: "sealed" } });
    expect(mail.map((m) => m.toAddress).sort()).toEqual([staff.email, ...(await db.prisma.participant.findMany({ where: { party: { contractId: id, myParty: false } } })).map((p) => p.email)].sort());
    for (const m of mail) expect(m.attachmentFileId).toBe(files[0]!.id);
  });

  it("the deliverer sends each copy as a PDF attachment over SMTP", async () => {
    await db.prisma.emailMessage.updateMany({ where: { contractId: id, kind: "sealed" }, data: { status: "queued" } });
    const smtp = await startTestSmtpServer();
    const transport = createSmtpTransport(smtp.url);
    try {
      const run = await deliverDueEmails({ prisma: db.prisma, transport, from: "Contracts <contracts@seal.test>", batchSize: 50 });
      expect(run.sent).toBeGreaterThanOrEqual(3);
    } finally {
      transport.close();
      await smtp.close();
    }
    const sealed = smtp.received.filter((m) => m.parsed.subject?.startsWith("Your signed copy"));
    expect(sealed).toHaveLength(3);
    for (const mail of sealed) {
      expect(mail.parsed.attachments).toHaveLength(1);
      const [attachment] = mail.parsed.attachments;
      expect(attachment).toMatchObject({ contentType: "application/pdf", filename: "Contract " + id + " - Purchase order (signed).pdf" });
      expect(Buffer.compare(attachment!.content, pdf)).toBe(0);
    }
  });

  it("verifies as intact; one byte changed anywhere makes it changed; other bytes are unknown or refused", async () => {
    const intact = await verifySealedPdf({ db: db.prisma, pdf });
    expect(intact).toMatchObject({ verdict: "intact", contract: { id, name: "Purchase order" } });
    // A byte in the signed content, one in the signature's hex string, one in its padding, and one appended.
    const contentsAt = pdf.indexOf("/Contents <") + "/Contents <".length;
    const changedAt = (bytes: Buffer, at: number) => {
      const changed = Buffer.from(bytes);
      changed[at] = changed[at] === 0x30 ? 0x31 : 0x30;
      return changed;
    };
    for (const at of [200, Math.floor(pdf.length / 2), contentsAt + 40, contentsAt + 20_000, pdf.length - 10]) {
      expect((await verifySealedPdf({ db: db.prisma, pdf: changedAt(pdf, at) })).verdict, `byte ${at}`).toBe("changed");
    }
    expect((await verifySealedPdf({ db: db.prisma, pdf: Buffer.concat([pdf, Buffer.from("\n%%EOF\n")]) })).verdict).toBe("changed");
    // A /ByteRange that places nothing written after the seal, the file cut short, bytes put before it: changed still.
    const faked = Buffer.concat([changedAt(pdf, 200), Buffer.from("\n% /ByteRange [0 1 2 3]\n")]);
    for (const [what, bytes] of [["a fake range after it", faked], ["cut short", pdf.subarray(0, pdf.length - 10)], ["bytes before it", Buffer.concat([Buffer.alloc(1100, 0x20), pdf])]] as const) {
      expect((await verifySealedPdf({ db: db.prisma, pdf: bytes })).verdict, what).toBe("changed");
    }
    // Told by the seal's certificate alone, its signature's name changed too.
    const shifted = Buffer.concat([Buffer.alloc(1100, 0x20), pdf]).toString("latin1");
    expect(shifted).toContain("/Name (Contracts document seal)");
    const unnamed = Buffer.from(shifted.replace("/Name (Contracts document seal)", "/Name (Somebody else, Inc.)"), "latin1");
    expect((await verifySealedPdf({ db: db.prisma, pdf: unnamed })).verdict).toBe("changed");
    // A /ByteRange written as text, with no numbers, is no signature: not a PDF without a header.
    await expect(verifySealedPdf({ db: db.prisma, pdf: Buffer.from("notes about /ByteRange and /Contents <00>") })).rejects.toThrow(DomainError);
    expect((await verifySealedPdf({ db: db.prisma, pdf: Buffer.from("%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n") })).verdict).toBe("unknown");
    await expect(verifySealedPdf({ db: db.prisma, pdf: Buffer.from("not a pdf at all") })).rejects.toThrow(DomainError);
  });

  it("a malformed /ByteRange (a negative number, two numbers, no array) still shows the seal: changed, not unknown", async () => {
    const text = pdf.toString("latin1");
    const range = /\/ByteRange\s*\[\s*0\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text)!;
    expect(range).not.toBeNull();
    const [, b, c, d] = range;
    // Each the same length as the range it replaces, so nothing else in the file moves.
    const sameLength = (replacement: string) => {
      expect(replacement.length).toBeLessThanOrEqual(range[0].length);
      return Buffer.from(text.slice(0, range.index) + replacement.padEnd(range[0].length, " ") + text.slice(range.index + range[0].length), "latin1");
    };
    for (const mangled of [`/ByteRange [0 -5 ${c} ${d}]`, `/ByteRange [0 ${b}]`, "/ByteRange /Foo", `/ByteRange [0 ${b} ${c} -${d!.slice(1)}]`, `/ByteRange [0 ${b} ${c}`]) {
      const bytes = sameLength(mangled);
      expect(bytes.length).toBe(pdf.length);
      const verdict = await verifySealedPdf({ db: db.prisma, pdf: bytes });
      expect(verdict, mangled).toMatchObject({ verdict: "changed", contract: null });
    }
    // Told by the seal's certificate alone too, its signature's name changed as well.
    const unnamed = Buffer.from(sameLength("/ByteRange /Foo").toString("latin1").replace("/Name (Contracts document seal)", "/Name (Somebody else, Inc.)"), "latin1");
    expect((await verifySealedPdf({ db: db.prisma, pdf: unnamed })).verdict).toBe("changed");
  });
});

describe("a sealed copy outlives its contract", () => {
  let id: number;
  let pdf: Buffer;
  const deletedAt = new Date(Date.now() + 60_000);

  beforeAll(async () => {
    id = await signedContract(["Ines I"]);
    expect(await sealDueContracts({ db: db.prisma })).toMatchObject({ sealed: 1 });
    pdf = await sealedBytes(id);
    expect(await verifySealedPdf({ db: db.prisma, pdf })).toMatchObject({ verdict: "intact", contract: { id } });
    // Admins may delete a contract in any state: its seal's record is kept, nothing personal.
    await atTime(deletedAt, () => deleteContract({ db: db.prisma, actor: staff, contractId: id }));
    expect(await db.prisma.contract.findUnique({ where: { id } })).toBeNull();
    expect(await db.prisma.contractSeal.findUnique({ where: { contractId: id } })).toBeNull();
  });

  it("the deletion kept the seal's record: the copy's and the certificate's SHA-256, when it was sealed and deleted", async () => {
    const kept = await db.prisma.deletedContractSeal.findUniqueOrThrow({ where: { contractId: id } });
    const deletion = await db.prisma.auditEvent.findFirstOrThrow({ where: { contractId: id, action: "contract.delete" } });
    expect(deletion.createdAt).toEqual(deletedAt);
    expect(kept).toEqual({
      contractId: id,
      sha256: createHash("sha256").update(pdf).digest("hex"),
      certificateSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      sealedAt: expect.any(Date),
      deletedAt,
    });
  });

  it("the copy is still intact, with no contract and one sentence saying when it was sealed and that its contract was deleted", async () => {
    const verdict = await verifySealedPdf({ db: db.prisma, pdf });
    const { sealedAt } = await db.prisma.deletedContractSeal.findUniqueOrThrow({ where: { contractId: id } });
    const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
    const day = `${sealedAt.getUTCDate()} ${months[sealedAt.getUTCMonth()]} ${sealedAt.getUTCFullYear()} at ${sealedAt.toISOString().slice(11, 16)} UTC`;
    expect(verdict).toEqual({
      verdict: "intact",
      message: `Sealed by this service on ${day} and unchanged; its contract (${id}) has since been deleted here.`,
      sha256: createHash("sha256").update(pdf).digest("hex"),
      contract: null,
    });
  });

  it("a changed copy of it is still changed; a record whose certificate is not the signer's makes no copy intact", async () => {
    const changed = Buffer.from(pdf);
    changed[200] = changed[200] === 0x30 ? 0x31 : 0x30;
    expect(await verifySealedPdf({ db: db.prisma, pdf: changed })).toMatchObject({ verdict: "changed", contract: null });
    expect((await verifySealedPdf({ db: db.prisma, pdf: Buffer.concat([pdf, Buffer.from("\n%%EOF\n")]) })).verdict).toBe("changed");
    const unnamed = Buffer.from(changed.toString("latin1").replace("/Name (Contracts document seal)", "/Name (Somebody else, Inc.)"), "latin1");
    expect((await verifySealedPdf({ db: db.prisma, pdf: unnamed })).verdict).toBe("changed");
    // `intact` needs the signer to be the certificate recorded for that copy.
    const kept = await db.prisma.deletedContractSeal.findUniqueOrThrow({ where: { contractId: id } });
    await db.prisma.deletedContractSeal.update({ where: { contractId: id }, data: { certificateSha256: "0".repeat(64) } });
    try {
      expect((await verifySealedPdf({ db: db.prisma, pdf })).verdict).toBe("changed");
    } finally {
      await db.prisma.deletedContractSeal.update({ where: { contractId: id }, data: { certificateSha256: kept.certificateSha256 } });
    }
  });

  it("a contract deleted before its seal was done keeps no record", async () => {
    const other = await signedContract(["Jon J"]);
    expect(await db.prisma.contractSeal.findUniqueOrThrow({ where: { contractId: other } })).toMatchObject({ status: "queued" });
    await deleteContract({ db: db.prisma, actor: staff, contractId: other });
    expect(await db.prisma.deletedContractSeal.findUnique({ where: { contractId: other } })).toBeNull();
  });
});

describe("exactly once, whatever happens to the sealers", () => {
  it(
    testDatabaseKind() === "pglite" ? "two sealers on one database seal each contract once" : "two sealers on one PostgreSQL seal each contract once",
    async () => {
      const ids = [await signedContract(["Cid C"]), await signedContract(["Dan D"]), await signedContract(["Eva E"])];
      const clients: PrismaClient[] = [createPrismaClient(db.url, 3), createPrismaClient(db.url, 3)];
      try {
        const runs = await Promise.all(clients.map((client) => sealDueContracts({ db: client })));
        const again = await Promise.all(clients.map((client) => sealDueContracts({ db: client })));
        expect(runs.reduce((n, r) => n + r.sealed, 0) + again.reduce((n, r) => n + r.sealed, 0)).toBe(3);
      } finally {
        await Promise.all(clients.map((c) => c.$disconnect()));
      }
      for (const contractId of ids) {
        expect(await db.prisma.contractFile.count({ where: { contractId, type: "verification" } })).toBe(1);
        expect(await db.prisma.auditEvent.count({ where: { contractId, action: "contract.seal" } })).toBe(1);
      }
    },
  );

  it("a sealer that dies mid-job leaves its lease; the next claim seals it, and the dead one's late finish is discarded", async () => {
    const id = await signedContract(["Fia F"]);
    let resumed = false;
    const first = sealDueContracts({
      db: db.prisma,
      async beforeStore(claim) {
        if (claim.contractId !== id || resumed) return;
        resumed = true;
        // The lease runs out while this sealer stalls; another one takes the seal over and finishes.
        await db.prisma.contractSeal.update({ where: { contractId: id }, data: { leaseUntil: new Date(Date.now() - 1000) } });
        expect(await sealDueContracts({ db: db.prisma })).toMatchObject({ claimed: 1, sealed: 1 });
      },
    });
    expect(await first).toMatchObject({ claimed: 1, lost: 1, sealed: 0 });
    expect(await db.prisma.contractFile.count({ where: { contractId: id, type: "verification" } })).toBe(1);
    expect(await db.prisma.contractSeal.findUniqueOrThrow({ where: { contractId: id } })).toMatchObject({ status: "done", attempts: 2 });
  });

  it("a failed attempt is retried with back-off, and a seal claimed and abandoned is claimed again once its lease ran out", async () => {
    const id = await signedContract(["Gun G"]);
    const failing = await sealDueContracts({
      db: db.prisma,
      retryScale: 0.0001,
      async beforeStore() {
        throw new Error("disk on fire");
      },
    });
    expect(failing).toMatchObject({ failed: 1 });
    expect(await db.prisma.contractSeal.findUniqueOrThrow({ where: { contractId: id } })).toMatchObject({ status: "queued", lastError: "disk on fire" });
    await new Promise((r) => setTimeout(r, 20));
    // Claimed, then the process "dies": nothing more happens to the claim until its lease runs out.
    expect(await claimDueSeals(db.prisma, { leaseMs: 1 })).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(await sealDueContracts({ db: db.prisma })).toMatchObject({ sealed: 1 });
    expect(await db.prisma.contractSeal.findUniqueOrThrow({ where: { contractId: id } })).toMatchObject({ status: "done", attempts: 3 });
  });
});
