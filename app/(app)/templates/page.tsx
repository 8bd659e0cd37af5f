import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingState } from "@/components/states";
import { TemplatesTable } from "./_components/templates-table";

export const metadata: Metadata = { title: "Templates" };

export default function TemplatesPage() {
  return (
    <div className="max-w-7xl">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Templates</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600">
        Contracts are created from templates. A template decides how its participants can be reached, how they sign and
        how they prove who they are: only the options listed here can be chosen for a participant.
      </p>
      <div className="mt-6">
        <Suspense fallback={<LoadingState label="Loading templates…" />}>
          <TemplatesTable />
        </Suspense>
      </div>
    </div>
  );
}
