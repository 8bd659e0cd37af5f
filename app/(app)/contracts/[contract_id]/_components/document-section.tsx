"use client";

import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useState } from "react";
import { DocumentText } from "@/components/contract-document";
import { sizeText } from "@/components/file-size";
import { ErrorState, LoadingState } from "@/components/states";
import { ContractTextEditor } from "./contract-text-editor";
import { documentQuery } from "./document-queries";
import { placementsQuery } from "./placement-queries";
import { RemovePdfControl, UploadPdfControl } from "./upload-pdf-control";

// The pages and their boxes load only for a contract whose document is an uploaded PDF (pdf.js
// itself later still, when the pages are drawn): a text contract's page carries none of it.
const PlacementEditor = dynamic(() => import("./placement-editor").then((m) => m.PlacementEditor), {
  ssr: false,
  loading: () => <LoadingState label="Loading the PDF…" lines={4} />,
});

/**
 * The contract's text as it will be signed: data fields filled in, empty ones marked and listed.
 * With `editable` (a draft the user may change), Edit text opens the text editor in its place; a
 * published contract's text says it is frozen. A draft may take a PDF of its own as its document
 * instead: then its pages are shown, with the boxes where each signatory signs (placed here while a
 * draft, read-only afterwards).
 */
export function DocumentSection({ contractId, editable }: { contractId: number; editable: boolean }) {
  const query = useQuery(documentQuery(contractId));
  const doc = query.data?.data;
  // How many boxes the removal of an uploaded PDF takes with it (the editor's own list, when loaded).
  const placements = useQuery({ ...placementsQuery(contractId), enabled: Boolean(doc?.uploaded_pdf) });
  // Stays open when the contract is published meanwhile, so the refused save and the typed text stay in view.
  const [editing, setEditing] = useState(false);
  return (
    <section aria-labelledby="document-title" className="mt-10">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="document-title" tabIndex={-1} className="text-lg font-semibold text-slate-900">
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
      ) : editing ? (
        <ContractTextEditor contractId={contractId} document={doc!} etag={query.data!.etag} onClose={() => setEditing(false)} />
      ) : doc!.uploaded_pdf ? (
        <>
          <p className="mt-2 text-sm text-slate-700">
            The document is the uploaded PDF <span className="font-medium text-slate-900">{doc!.uploaded_pdf.name}</span> ({sizeText(doc!.uploaded_pdf.size)},{" "}
            {doc!.uploaded_pdf.pages} {doc!.uploaded_pdf.pages === 1 ? "page" : "pages"}){doc!.frozen ? ", frozen when the contract was published." : "."}
          </p>
          {editable ? <UploadPdfControl contractId={contractId} current={doc!.uploaded_pdf} /> : null}
          {editable && !doc!.frozen ? <RemovePdfControl contractId={contractId} pdf={doc!.uploaded_pdf} boxes={placements.data?.count ?? null} /> : null}
          <PlacementEditor contractId={contractId} pdf={doc!.uploaded_pdf} editable={editable && !doc!.frozen} />
        </>
      ) : (
        <>
          {doc!.frozen ? (
            <p className="mt-2 rounded-md border border-slate-200 bg-slate-100 px-3 py-2 text-sm text-slate-800">
              This text can no longer change: it was frozen when the contract was published, as the text its participants sign.
            </p>
          ) : editable ? (
            <button type="button" className="mt-2 rounded border border-slate-300 px-3 py-1.5 text-sm font-medium" onClick={() => setEditing(true)}>
              Edit text
            </button>
          ) : null}
          {doc!.missing_data_fields.length > 0 ? (
            <p className="mt-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              The text needs values for: {doc!.missing_data_fields.map((f) => f.name).join(", ")}. They are marked below.
            </p>
          ) : null}
          {editable && !doc!.frozen ? <UploadPdfControl contractId={contractId} current={null} /> : null}
          <article aria-label="Contract text" className="mt-3 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
            <DocumentText sections={doc!.sections} />
          </article>
        </>
      )}
    </section>
  );
}
