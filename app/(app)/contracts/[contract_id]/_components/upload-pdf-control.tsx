"use client";

import { useId, useRef, useState, type ChangeEvent } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { FileInput } from "@/components/file-input";
import { RequestError } from "@/lib/client/fetch-json";
import type { TContractDocument } from "@/lib/schemas/document";
import { useRemoveContractPdf, useUploadContractPdf } from "./placement-queries";

/**
 * A draft's own PDF as its document (`upload_as=expanded_pdf`), in place of the template's text.
 * When one is there already, a chosen file replaces it only after a confirming click.
 */
export function UploadPdfControl({ contractId, current }: { contractId: number; current: TContractDocument["uploaded_pdf"] }) {
  const upload = useUploadContractPdf(contractId);
  const [pending, setPending] = useState<File | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();

  function send(file: File) {
    setPending(null);
    upload.mutate(file, { onSettled: () => { if (input.current) input.current.value = ""; } });
  }

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    if (current) setPending(file);
    else send(file);
  }

  return (
    <div className="mt-3 rounded-md border border-slate-200 bg-slate-50 px-3 py-2">
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
        {current ? "Replace the PDF" : "Upload your own PDF"}{" "}
        <span className="font-normal text-slate-600">
          ({current ? "" : "it replaces the text as the document; "}at most 25 MB and 300 pages)
        </span>
      </label>
      <FileInput inputRef={input} id={inputId} accept="application/pdf" busy={upload.isPending} failure={upload.error} problemId={`${inputId}-problem`} onChange={choose} />
      {pending && current ? (
        <div role="group" aria-label="Confirm replacing the PDF" className="mt-2 text-sm text-slate-800">
          <p>
            Replace {current.name} with {pending.name}? Boxes stay where they are; those on pages the new PDF lacks are removed.
          </p>
          <div className="mt-1 flex gap-2">
            <button type="button" className="rounded bg-blue-700 px-3 py-1 font-semibold text-white hover:bg-blue-800" onClick={() => send(pending)}>
              Replace
            </button>
            <button
              type="button"
              className="rounded border border-slate-300 bg-white px-3 py-1 font-medium"
              onClick={() => {
                setPending(null);
                if (input.current) input.current.value = "";
              }}
            >
              Keep the current PDF
            </button>
          </div>
        </div>
      ) : null}
      {upload.isPending ? <p className="mt-1 text-sm text-slate-600">Uploading and checking the PDF…</p> : null}
      {upload.error ? (
        <p id={`${inputId}-problem`} role="alert" className="mt-1 text-sm text-red-800">
          {upload.error instanceof RequestError ? upload.error.message : "The upload failed."}
        </p>
      ) : null}
    </div>
  );
}

/** Why the PDF was not removed, in one sentence. */
function removalRefusal(error: unknown): string {
  if (!(error instanceof RequestError) || error.status === 0) return "The PDF could not be removed: the server could not be reached, so check your connection and try again.";
  if (error.status === 404) return "The PDF is no longer there (someone may have removed or replaced it); reload the page to see the document as it is.";
  if (error.status === 409) return "The PDF was not removed: the contract is no longer a draft, so its document cannot change.";
  return `The PDF was not removed: ${error.message}`;
}

/**
 * Back to the template's text: removes a draft's uploaded PDF and its boxes (`DELETE …/files/{id}`
 * on the `contract` file), after asking. The dialog closes once the text is shown again, and the
 * Document heading takes focus (the button is gone with the PDF).
 */
export function RemovePdfControl({ contractId, pdf, boxes }: { contractId: number; pdf: NonNullable<TContractDocument["uploaded_pdf"]>; boxes: number | null }) {
  const removal = useRemoveContractPdf(contractId);
  const boxWords = boxes === null ? "the boxes placed on it" : boxes === 0 ? "no boxes are placed on it" : boxes === 1 ? "the 1 box placed on it" : `the ${boxes} boxes placed on it`;
  return (
    <div className="mt-2">
      <ConfirmDialog
        buttonText="Remove the PDF (use the template's text)"
        buttonClassName="rounded-md border border-red-300 bg-white px-3 py-1 text-sm font-medium text-red-800 hover:bg-red-50"
        title="Remove the PDF?"
        description={
          boxes === 0
            ? `${pdf.name} is removed (no boxes are placed on it), and the template's text is the document again.`
            : `${pdf.name} and ${boxWords} are removed, and the template's text is the document again.`
        }
        confirmLabel="Remove the PDF"
        busyLabel="Removing…"
        busy={removal.isPending}
        error={removal.isError ? removalRefusal(removal.error) : null}
        onOpen={removal.reset}
        onConfirm={(close) =>
          // The promise settles even once this control is gone (the text replaced the PDF meanwhile).
          void removal.mutateAsync(pdf.file_id).then(
            () => {
              close();
              document.getElementById("document-title")?.focus();
            },
            () => undefined,
          )
        }
      />
    </div>
  );
}
