// The sealed signed copy (docs/security.md "The seal"). The signature that makes a contract `signed`
// queues a `contract_seals` row in its own transaction (queueSeal). Every app instance runs the
// sealer: it claims due rows with a lease (lib/services/jobs/claim-due.ts); the PDF is built and
// signed after that commit; one transaction then stores it, marks the
// row done, writes the `contract.seal` audit event (so the webhook) and queues the mail — only if the
// claim is still this one's (same attempt, still running, row locked). A sealer that dies mid-way
// leaves its lease to run out and the next claim builds the copy again: at most one copy is ever
// stored, and nothing of a lost attempt is.
import type { PrismaClient, Tx } from "@/lib/db";
import { backoffDelay } from "@/lib/domain/retry";
import { logger, serializeError } from "@/lib/logger";
import { checkContractChain } from "@/lib/services/audit/check-contract-chain";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { loadContractDocument } from "@/lib/services/contracts/load-contract-document";
import { endAttempt } from "@/lib/services/jobs/end-attempt";
import { addContractFile } from "@/lib/services/files/add-contract-file";
import { fileStore } from "@/lib/services/files/file-store";
import { enqueueEmail } from "@/lib/services/mail/enqueue-email";
import { mailQueued } from "@/lib/services/mail/mail-wakeup";
import { sealedMail } from "@/lib/services/mail/messages";
import { now } from "@/lib/clock";

import type { TSealInput, TSealUpload } from "./build-sealed-pdf";
import { claimDueSeals, SEAL_LEASE_MS, SEALS, type TSealClaim } from "./claim-due-seals";
import { cutText } from "@/lib/domain/cut-text";

/** Given up (status `failed`, the error kept) after this many attempts. */
export const MAX_SEAL_ATTEMPTS = 8;
export interface TSealOptions {
  db: PrismaClient;
  /** PUBLIC_URL, when set: the mail's link to /verify points there. */
  publicUrl?: string | undefined;
  leaseMs?: number;
  retryScale?: number;
  /** Tests: runs between building the copy and storing it (a crash or a stall there). */
  beforeStore?: (claim: TSealClaim) => Promise<void>;
}

export interface TSealRun {
  claimed: number;
  sealed: number;
  failed: number;
  lost: number;
}

/** One round: claim, then build, sign and store each claimed copy. */
export async function sealDueContracts(options: TSealOptions): Promise<TSealRun> {
  const claims = await claimDueSeals(options.db, { leaseMs: options.leaseMs ?? SEAL_LEASE_MS });
  const run: TSealRun = { claimed: claims.length, sealed: 0, failed: 0, lost: 0 };
  for (const claim of claims) run[await sealOne(options, claim)] += 1;
  if (run.sealed > 0) mailQueued();
  return run;
}

async function sealOne(options: TSealOptions, claim: TSealClaim): Promise<"sealed" | "failed" | "lost"> {
  const { db } = options;
  const log = { contract_id: claim.contractId, attempt: claim.attempts };
  try {
    // The PDF and certificate libraries are loaded by the first seal, not by every process at start.
    const [{ loadSealIdentity }, { buildSealedPdf }] = await Promise.all([import("./seal-identity"), import("./build-sealed-pdf")]);
    const identity = await loadSealIdentity(db);
    const input = await loadSealInput(db, claim.contractId);
    const sealedAt = now();
    const pdf = await buildSealedPdf(input, identity, sealedAt);
    await options.beforeStore?.(claim);
    const stored = await db.$transaction(async (tx: Tx) => {
      const [mine] = await tx.$queryRaw<{ contract_id: number }[]>`
        SELECT contract_id FROM contract_seals
        WHERE contract_id = ${claim.contractId} AND status = 'running' AND attempts = ${claim.attempts} FOR UPDATE`;
      // Another sealer took it over (this one's lease ran out), or it is done: nothing of this attempt is kept.
      if (!mine) return false;
      await storeSealed(tx, claim, input, pdf, sealedAt, identity.fingerprint, options.publicUrl);
      return true;
    });
    if (!stored) {
      logger.info(log, "seal attempt lost its claim; discarded");
      return "lost";
    }
    logger.info({ ...log, bytes: pdf.length }, "contract sealed");
    return "sealed";
  } catch (error) {
    const giveUp = claim.attempts >= MAX_SEAL_ATTEMPTS;
    const delay = backoffDelay(claim.attempts, { scale: options.retryScale ?? 1 });
    const reason = cutText(error instanceof Error ? error.message : String(error), 1000);
    await endAttempt(db, SEALS, { key: claim.contractId, attempts: claim.attempts }, { status: giveUp ? "failed" : "queued", error: reason, delayMs: delay });
    logger.warn({ ...log, error: serializeError(error) }, giveUp ? "sealing failed; given up" : "sealing failed; will retry");
    return "failed";
  }
}

/** The copy as the `verification` file, the row done, the audit event, and the mail with the copy attached. */
async function storeSealed(tx: Tx, claim: TSealClaim, input: TSealInput, pdf: Buffer, sealedAt: Date, certificateSha256: string, publicUrl: string | undefined): Promise<void> {
  const name = sealedFileName(input.contract.name, input.contract.id);
  const file = await addContractFile(tx, { contractId: claim.contractId, type: "verification", name, contentType: "application/pdf", bytes: pdf });
  const sha256 = file.sha256!;
  await tx.contractSeal.update({
    where: { contractId: claim.contractId },
    data: { status: "done", leaseUntil: null, lastError: "", fileId: file.id, sha256, sealedAt, certificateSha256 },
  });
  await writeAuditEvent({
    db: tx,
    actor: { kind: "system" },
    action: "contract.seal",
    entityType: "contract",
    entityId: claim.contractId,
    contractId: claim.contractId,
    workspaceId: input.contract.workspaceId,
    after: { verification_file_id: file.id, sha256, sealed_time: sealedAt.toISOString() },
  });
  const origin = publicUrl ?? claim.linkOrigin;
  const seen = new Set<string>();
  for (const person of input.recipients) {
    const address = person.email.trim().toLowerCase();
    if (address === "" || seen.has(address)) continue;
    seen.add(address);
    const mail = sealedMail({ participantName: person.name, contractName: input.contract.name, fileName: name, verifyUrl: `${origin}/verify` });
    await enqueueEmail({ db: tx, kind: "sealed", contractId: claim.contractId, participantId: person.participantId, to: person.email, linkOrigin: origin, attachmentFileId: file.id, ...mail });
  }
}

/** `Contract 12 - Purchase order.pdf`: the name without what a file system refuses. */
function sealedFileName(contractName: string, contractId: number): string {
  const clean = cutText(contractName.replace(/[\p{Cc}\p{Cf}/\\:*?"<>|]+/gu, " ").replace(/\s+/g, " ").trim(), 80);
  return `Contract ${contractId}${clean ? ` - ${clean}` : ""} (signed).pdf`;
}

/** Everything the copy and its mail need, read as the contract is now (signed: nothing changes any more). */
async function loadSealInput(db: PrismaClient | Tx, contractId: number): Promise<TSealInput> {
  const contract = await db.contract.findUniqueOrThrow({
    where: { id: contractId },
    select: {
      id: true,
      name: true,
      state: true,
      stateUpdatedAt: true,
      workspaceId: true,
      createdBy: { select: { name: true, email: true } },
      workspace: { select: { name: true } },
      parties: {
        orderBy: [{ myParty: "desc" }, { id: "asc" }],
        select: {
          name: true,
          myParty: true,
          participants: {
            orderBy: { id: "asc" },
            select: {
              id: true,
              name: true,
              title: true,
              email: true,
              signatory: true,
              organizer: true,
              signState: true,
              signStateUpdatedAt: true,
              signedName: true,
              signMethod: true,
              twoStepMethod: true,
              decidedIp: true,
              decidedUserAgent: true,
              deliveryChannel: true,
            },
          },
        },
      },
    },
  });
  if (contract.state !== "signed") throw new Error(`contract ${contractId} is ${contract.state}, not signed`);
  const { document, attachments } = await loadContractDocument(db, contractId);
  const events = await db.auditEvent.findMany({
    where: { contractId },
    orderBy: [{ chainSeq: "asc" }, { id: "asc" }],
    select: { createdAt: true, action: true, actorName: true, via: true, chainSeq: true },
  });
  const chain = await checkContractChain(db, contractId);
  const upload = await loadUpload(db, contractId);
  const participants = contract.parties.flatMap((party) => party.participants.map((p) => ({ ...p, party: party.name, myParty: party.myParty })));
  const organizer = participants.find((p) => p.myParty && p.organizer && p.email !== "");
  // Every participant with an address, and the organizer (else the contract's creator) in any case.
  const recipients = [
    ...participants.filter((p) => p.email !== "" && p.deliveryChannel !== "none").map((p) => ({ participantId: p.id as number | null, name: p.name, email: p.email })),
    ...(organizer
      ? [{ participantId: organizer.id, name: organizer.name, email: organizer.email }]
      : contract.createdBy
        ? [{ participantId: null, name: contract.createdBy.name, email: contract.createdBy.email }]
        : []),
  ];
  return {
    contract: { id: contract.id, name: contract.name, workspaceId: contract.workspaceId, workspaceName: contract.workspace.name, completedAt: contract.stateUpdatedAt },
    document,
    upload,
    participants,
    attachments: attachments.map((a) => ({ name: a.name, sha256: a.sha256 })),
    events,
    chain,
    recipients,
  };
}

/** The uploaded PDF that is the contract's document (its `contract` file with stored bytes) and the boxes placed on it; null for a text contract. */
async function loadUpload(db: PrismaClient | Tx, contractId: number): Promise<TSealUpload | null> {
  const original = await db.contractFile.findFirst({
    where: { contractId, type: "contract", storageKey: { not: null } },
    select: { name: true, sha256: true, storageKey: true },
  });
  if (!original?.storageKey) return null;
  if (!original.sha256) throw new Error(`the uploaded PDF of contract ${contractId} has no SHA-256 stored`);
  const placements = await db.placement.findMany({
    where: { contractId },
    orderBy: [{ page: "asc" }, { id: "asc" }],
    select: { page: true, x: true, y: true, width: true, height: true, kind: true, participantId: true, dataField: { select: { name: true, value: true } } },
  });
  const bytes = await fileStore().read(db, original.storageKey);
  return { name: original.name, sha256: original.sha256, bytes, placements };
}
