import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingState } from "@/components/states";
import { TemplateTypesTable } from "./_components/template-types-table";

export const metadata: Metadata = { title: "Template types" };

export default function TemplateTypesPage() {
  return (
    <div className="max-w-6xl">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Template types</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600">The kinds of document templates are made from.</p>
      <div className="mt-6">
        <Suspense fallback={<LoadingState label="Loading template types…" />}>
          <TemplateTypesTable />
        </Suspense>
      </div>
    </div>
  );
}
