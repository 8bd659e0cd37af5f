"use client";

import Link from "next/link";
import { useId } from "react";

type TDocumentPdfFieldProps = {
  file: File | null;
  onChange: (file: File | null) => void;
  /** The upload's refusal, once the contract exists: said in one sentence, with a link to the draft. */
  refusal: { message: string; contractId: number } | null;
  disabled: boolean;
};

/**
 * The review step's optional PDF: uploaded as the new draft's document (in place of the template's
 * text) right after the contract is created. The draft exists whether or not the PDF is accepted,
 * so a refusal says so and links it.
 */
export function DocumentPdfField({ file, onChange, refusal, disabled }: TDocumentPdfFieldProps) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  return (
    <section aria-labelledby={`${inputId}-title`} className="rounded-lg border border-slate-200 bg-white p-4">
      <h3 id={`${inputId}-title`} className="text-base font-semibold text-slate-900">
        Document
      </h3>
      <label htmlFor={inputId} className="mt-2 block text-sm font-medium text-slate-800">
        Use your own PDF as the document (optional)
      </label>
      <p id={hintId} className="text-sm text-slate-600">
        Without one, the contract&apos;s document is its template&apos;s text. A PDF may be at most 25 MB and 300 pages; you then mark on its pages where each
        signatory signs.
      </p>
      <input
        id={inputId}
        type="file"
        accept="application/pdf"
        className="mt-1 block text-sm"
        disabled={disabled}
        aria-describedby={refusal ? `${hintId} ${errorId}` : hintId}
        aria-invalid={refusal ? true : undefined}
        onChange={(event) => onChange(event.target.files?.[0] ?? null)}
      />
      {file ? <p className="mt-1 text-sm text-slate-700">Chosen: {file.name}</p> : null}
      {refusal ? (
        <p id={errorId} role="alert" className="mt-2 text-sm text-red-800">
          {refusal.message} The contract was created as a draft without it:{" "}
          <Link href={`/contracts/${refusal.contractId}`} className="font-medium underline">
            open the draft
          </Link>{" "}
          to upload another PDF there, or choose another file here and try again.
        </p>
      ) : null}
    </section>
  );
}
