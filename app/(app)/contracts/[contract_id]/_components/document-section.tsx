"use client";

import { useQuery } from "@tanstack/react-query";
import { DocumentText } from "@/components/contract-document";
import { ErrorState, LoadingState } from "@/components/states";
import { documentQuery } from "./document-queries";

/** The contract's text as it will be signed: data fields filled in, empty ones marked and listed. */
export function DocumentSection({ contractId }: { contractId: number }) {
  const query = useQuery(documentQuery(contractId));
  const doc = query.data;
  return (
    <section aria-labelledby="document-title" className="mt-10">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="document-title" className="text-lg font-semibold text-slate-900">
          Document
        </h2>
        {doc?._links.pdf.href ? (
          <a href={new URL(doc._links.pdf.href).pathname + new URL(doc._links.pdf.href).search} className="text-sm font-medium text-blue-700 underline">
            Download PDF{doc.frozen ? "" : " (draft)"}
          </a>
        ) : null}
      </div>
      {query.isPending ? (
        <LoadingState label="Loading the document…" />
      ) : query.isError ? (
        <ErrorState title="Could not load the document." error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      ) : (
        <>
          {doc!.missing_data_fields.length > 0 ? (
            <p className="mt-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              The text needs values for: {doc!.missing_data_fields.map((f) => f.name).join(", ")}. They are marked below.
            </p>
          ) : null}
          <article aria-label="Contract text" className="mt-3 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
            <DocumentText sections={doc!.sections} />
          </article>
        </>
      )}
    </section>
  );
}
