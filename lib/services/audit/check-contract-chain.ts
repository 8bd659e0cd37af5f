// Whether a contract's audit trail is as it was written (docs/security.md "The seal and the audit chain"). The
// hashes are made by the `audit_events_chain` trigger; this recomputes them with the same SQL
// function (`audit_event_hash`, prisma/migrations/…_audit_chain_and_seal), so the rule is written once.
import type { Tx } from "@/lib/db";

export interface TChainVerdict {
  intact: boolean;
  /** Events in the chain. */
  events: number;
  /** The hash of the newest event (the chain's head); null for a contract without events. */
  lastHash: string | null;
  /** The first place the chain does not hold: its position (1 = the first event) and event id (null when events past the last one were deleted). */
  brokenAt: { position: number; eventId: number | null; reason: string } | null;
}

/**
 * Walks the events in chain order: each must sit at the next position and carry the hash of its
 * own content chained onto the stored hash before it; the last must be the head the trigger kept.
 */
export async function checkContractChain(db: Tx, contractId: number): Promise<TChainVerdict> {
  const rows = await db.$queryRaw<{ id: number; seq: number | null; hash: string | null; expected: string }[]>`
    SELECT a.id, a.chain_seq AS seq, a.chain_hash AS hash,
           audit_event_hash(a, COALESCE(lag(a.chain_hash) OVER w, '')) AS expected
    FROM audit_events a
    WHERE a.contract_id = ${contractId}
    WINDOW w AS (ORDER BY a.chain_seq NULLS LAST, a.id)
    ORDER BY a.chain_seq NULLS LAST, a.id`;
  const head = await db.auditChainHead.findUnique({ where: { contractId }, select: { seq: true, hash: true } });
  const broken = (position: number, eventId: number | null, reason: string): TChainVerdict => ({
    intact: false,
    events: rows.length,
    lastHash: head?.hash ?? null,
    brokenAt: { position, eventId, reason },
  });
  for (const [index, row] of rows.entries()) {
    const position = index + 1;
    if (row.seq === null || row.hash === null) return broken(position, row.id, "the event is not in the chain (written past the trigger)");
    if (row.seq !== position) return broken(position, row.id, row.seq > position ? "an event before it was deleted" : "its position was changed");
    if (row.hash !== row.expected) return broken(position, row.id, "its content or hash was changed");
  }
  const last = rows.at(-1);
  if ((head?.seq ?? 0) !== rows.length || (last && head?.hash !== last.hash)) return broken(rows.length + 1, null, "the newest events were deleted");
  return { intact: true, events: rows.length, lastHash: last?.hash ?? null, brokenAt: null };
}
