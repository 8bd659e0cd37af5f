// A signing link's participant, party and contract, found by the token's hash (docs/signing.md
// "Links and the signing page"). No staff session: the link's token is the credential, dead once the
// contract is no longer pending.
import type { Tx } from "@/lib/db";
import { DomainError } from "@/lib/domain/errors";
import { isWellFormedSigningToken, signingTokenHash } from "@/lib/domain/signing";

const DEAD_LINK = "This signing link does not work (any more): the contract may have been signed, declined, withdrawn or expired.";

async function findOnce(db: Tx, token: string) {
  if (!isWellFormedSigningToken(token)) throw new DomainError("resource_not_found", DEAD_LINK);
  const participant = await db.participant.findUnique({
    where: { signingTokenHash: signingTokenHash(token) },
    include: { party: { include: { contract: true } } },
  });
  if (!participant || participant.party.contract.state !== "pending") throw new DomainError("resource_not_found", DEAD_LINK);
  return { participant, party: participant.party, contract: participant.party.contract };
}

/**
 * The link's participant with its party and contract; 404 `resource_not_found` when the token is
 * malformed or unknown or its contract is not pending. With `lock`, the contract row is locked first
 * and the participant found again: every decision on it queues there.
 */
export async function findSigningLink(db: Tx, token: string, { lock = false }: { lock?: boolean } = {}) {
  const first = await findOnce(db, token);
  if (!lock) return first;
  await db.$queryRaw`SELECT id FROM contracts WHERE id = ${first.contract.id} FOR UPDATE`;
  return findOnce(db, token);
}
