"use client";

import { useQuery } from "@tanstack/react-query";

import { fetchJson } from "@/lib/client/fetch-json";
import { pathOf } from "@/lib/client/v1";
import type { TAuditChainVerdict } from "@/lib/schemas/seal";

import { eventsKey } from "./contract-queries";

/**
 * One line under the Activity heading: whether the trail's hash chain holds (GET
 * /v1/contracts/{id}/events/verify). Under the events' key, so it is checked again whenever they refresh.
 */
export function ChainStatus({ contractId }: { contractId: number }) {
  const query = useQuery({
    queryKey: [...eventsKey(contractId), "verify"],
    queryFn: ({ signal }) => fetchJson<TAuditChainVerdict>(pathOf("verifyContractEvents", { contract_id: contractId }), { signal }),
  });
  if (!query.data) return null;
  const v = query.data;
  return (
    <p data-testid="audit-chain" className={`mt-1 text-sm ${v.intact ? "text-slate-600" : "font-medium text-red-700"}`}>
      {v.intact
        ? `Audit trail intact: ${v.events} event${v.events === 1 ? "" : "s"} in an unbroken hash chain.`
        : `Audit trail broken at event ${v.broken_at?.position}: ${v.broken_at?.reason}.`}
      {v.last_hash ? <span className="ml-1 break-all font-mono text-xs text-slate-500">Last hash {v.last_hash.slice(0, 16)}…</span> : null}
    </p>
  );
}
