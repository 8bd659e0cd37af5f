import type { PrismaClient, Tx } from "@/lib/db";
import { SUPPORTED_SIGN_METHODS } from "@/lib/domain/publish-readiness";
import { delegationRefusal } from "@/lib/domain/delegation";
import { isTheirTurn, openStage } from "@/lib/domain/signing-order";
import type { Participant } from "@/lib/generated/prisma/client";
import { findSigningLink } from "@/lib/services/signing/find-signing-link";
import { now as clockNow } from "@/lib/clock";

export interface TSigningView {
  contract: { id: number; name: string; state: string; expiresAt: Date | null };
  you: Pick<Participant, "id" | "name" | "email" | "signatory" | "signMethod" | "twoStepMethod" | "signState" | "signOrder"> & {
    partyName: string;
    signMethodSupported: boolean;
    twoStepLocked: boolean;
    /** False while an ordered contract's earlier stages have not all signed: the page waits. */
    yourTurn: boolean;
    /** The signatory may hand their signature on (the contract allows it, a company's signatory, not decided). */
    canDelegate: boolean;
  };
  /** The stage signing now on an ordered contract; null on a parallel one. */
  openStage: number | null;
  parties: { name: string; myParty: boolean; participants: { name: string; title: string; signatory: boolean; signState: string }[] }[];
  dataFields: { name: string; value: string }[];
}

/**
 * What the signing page shows. Counts the visit (`visits`, first and last visit) and marks an
 * e-mailed invitation `opened`.
 */
export async function openSigningLink({ db, token }: { db: PrismaClient; token: string }): Promise<TSigningView> {
  return db.$transaction(async (tx: Tx) => {
    const { participant, party, contract } = await findSigningLink(tx, token);
    const now = clockNow();
    await tx.participant.update({
      where: { id: participant.id },
      data: {
        visits: { increment: 1 },
        lastVisitedAt: now,
        ...(participant.firstVisitedAt ? {} : { firstVisitedAt: now }),
        ...(participant.deliveryStatus === "pending" || participant.deliveryStatus === "success" ? { deliveryStatus: "opened" } : {}),
      },
    });
    const parties = await tx.party.findMany({
      where: { contractId: contract.id },
      orderBy: { id: "asc" },
      select: { name: true, myParty: true, participants: { orderBy: { id: "asc" }, select: { name: true, title: true, signatory: true, signState: true, signOrder: true } } },
    });
    const everyone = parties.flatMap((p) => p.participants);
    const dataFields = await tx.contractDataField.findMany({ where: { contractId: contract.id }, orderBy: { id: "asc" }, select: { name: true, value: true } });
    return {
      contract: { id: contract.id, name: contract.name, state: contract.state, expiresAt: contract.signingPeriodExpiresAt },
      you: {
        id: participant.id,
        name: participant.name,
        email: participant.email,
        signatory: participant.signatory,
        signMethod: participant.signMethod,
        twoStepMethod: participant.twoStepMethod,
        signState: participant.signState,
        partyName: party.name,
        signMethodSupported: SUPPORTED_SIGN_METHODS.includes(participant.signMethod) && participant.twoStepMethod !== "sms",
        twoStepLocked: participant.twoStepMethod === "email" && participant.twoStepLockedAt !== null,
        signOrder: participant.signOrder,
        yourTurn: isTheirTurn(contract.signingOrder, everyone, participant),
        canDelegate: delegationRefusal(contract, party, participant, isTheirTurn(contract.signingOrder, everyone, participant)) === null,
      },
      openStage: openStage(contract.signingOrder, everyone),
      parties,
      dataFields,
    };
  });
}
