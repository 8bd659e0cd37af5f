import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { LoadingState } from "@/components/states";
import { ContractsList } from "./_list/contracts-list";

export const metadata: Metadata = { title: "Contracts" };

// The list itself is fetched in the browser from /v1/contracts (TanStack Query): it changes with
// every filter, sort and page, all of which live in the URL.
export default function ContractsPage() {
  return (
    <div className="max-w-7xl">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Contracts</h1>
        <Link href="/contracts/new" className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800">
          New contract
        </Link>
      </div>
      {/* useSearchParams needs a boundary; the fallback is what the first paint would show anyway. */}
      <Suspense fallback={<LoadingState label="Loading contracts…" />}>
        <ContractsList />
      </Suspense>
    </div>
  );
}
