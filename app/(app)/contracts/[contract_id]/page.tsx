import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getCurrentSessionUser } from "@/lib/auth/require-session";
import { MAX_ID } from "@/lib/schemas/common";
import { ContractView } from "./_components/contract-view";

export const metadata: Metadata = { title: "Contract" };

/** Ids are positive Postgres integers; anything else cannot name a contract. */
function contractIdOf(raw: string): number | null {
  if (!/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= MAX_ID ? id : null;
}

export default async function ContractPage({ params }: { params: Promise<{ contract_id: string }> }) {
  const id = contractIdOf((await params).contract_id);
  if (id === null) notFound();
  // The layout has required the session; its user (one lookup per render) says whether Delete is
  // offered for contracts that are no longer drafts. The API decides either way.
  const user = await getCurrentSessionUser();
  // The contract itself loads in the browser through /v1, like every other read of the staff app.
  return <ContractView contractId={id} isAdmin={user?.isAdmin ?? false} />;
}
