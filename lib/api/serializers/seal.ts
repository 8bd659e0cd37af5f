import type { TAuditChainVerdict, TSealVerification } from "@/lib/schemas";
import type { TChainVerdict } from "@/lib/services/audit/check-contract-chain";
import type { TSealVerdict } from "@/lib/services/seal/verify-sealed-pdf";

import { isoTime, isoTimeOrNull } from "./time";

export function serializeChainVerdict(v: TChainVerdict): TAuditChainVerdict {
  return {
    intact: v.intact,
    events: v.events,
    last_hash: v.lastHash,
    broken_at: v.brokenAt && { position: v.brokenAt.position, event_id: v.brokenAt.eventId, reason: v.brokenAt.reason },
  };
}

export function serializeSealVerdict(v: TSealVerdict): TSealVerification {
  return {
    verdict: v.verdict,
    message: v.message,
    sha256: v.sha256,
    contract: v.contract && { id: v.contract.id, name: v.contract.name, completed_time: isoTime(v.contract.completedAt), sealed_time: isoTimeOrNull(v.contract.sealedAt) },
  };
}
