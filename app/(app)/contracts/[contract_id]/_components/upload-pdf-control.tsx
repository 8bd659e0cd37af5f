"use client";

import { useId, useRef, useState, type ChangeEvent } from "react";
import { RequestError } from "@/lib/client/fetch-json";
import type { TContractDocument } from "@/lib/schemas/document";
import { useUploadContractPdf } from "./placement-queries";

/** Bytes in words: "240 KB", "3.1 MB". */
export const sizeText = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

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
      <input ref={input} id={inputId} type="file" accept="application/pdf" className="mt-1 block text-sm" disabled={upload.isPending} onChange={choose} />
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
        <p role="alert" className="mt-1 text-sm text-red-800">
          {upload.error instanceof RequestError ? upload.error.message : "The upload failed."}
        </p>
      ) : null}
    </div>
  );
}
