import type { Metadata } from "next";
import { ContractWizard } from "./_components/contract-wizard";

export const metadata: Metadata = { title: "New contract" };

export default function NewContractPage() {
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">New contract</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600">
        Choose where the contract lives and its template, add the counterparties who sign it, then check and create it.
        Only the options the template offers can be chosen.
      </p>
      <ContractWizard />
    </div>
  );
}
