"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useRef, type ChangeEvent } from "react";
import { FileInput } from "@/components/file-input";
import { sizeText } from "@/components/file-size";
import { ErrorState } from "@/components/states";
import { RequestError } from "@/lib/client/fetch-json";
import { filesQuery, useDeleteAttachment, useUploadAttachment } from "./document-queries";
const localHref = (href: string) => {
  const url = new URL(href);
  return url.pathname + url.search;
};

/** The contract's files: the PDF, the sealed copy once signed, and attachments (added and removed in a draft). */
export function AttachmentsSection({ contractId, editable }: { contractId: number; editable: boolean }) {
  const files = useQuery(filesQuery(contractId));
  const upload = useUploadAttachment(contractId);
  const remove = useDeleteAttachment(contractId);
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const attachments = files.data?.data.filter((f) => f.type === "attachment") ?? [];
  const sealed = files.data?.data.find((f) => f.type === "verification");

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    remove.reset();
    upload.mutate(file, { onSettled: () => { if (input.current) input.current.value = ""; } });
  }

  // The last action's refusal (each action forgets the other's).
  const error = upload.error ?? remove.error;
  return (
    <section aria-labelledby="attachments-title" className="mt-10">
      {/* Focusable, so focus has somewhere to go when a removed file takes its button away. */}
      <h2 ref={heading} id="attachments-title" tabIndex={-1} className="text-lg font-semibold text-slate-900">
        Attachments
      </h2>
      {files.isError ? (
        <ErrorState title="Could not load the files." error={files.error} onRetry={() => void files.refetch()} retrying={files.isFetching} />
      ) : (
        <>
          {sealed ? (
            <p className="mt-2 text-sm">
              <a className="font-medium text-blue-700 underline" href={localHref(sealed._links.download.href)}>
                Download the sealed signed copy
              </a>
            </p>
          ) : null}
          {attachments.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">No attachments.</p>
          ) : (
            <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
              {attachments.map((file) => (
                <li key={file.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
                  <a className="font-medium text-blue-700 underline" href={localHref(file._links.download.href)}>
                    {file.name}
                  </a>
                  <span className="text-slate-600">{file.size === null ? "" : sizeText(file.size)}</span>
                  {editable ? (
                    // aria-disabled, not disabled, while a removal runs: a refused removal leaves focus here.
                    <button
                      type="button"
                      className="rounded border border-slate-300 px-2 py-1 text-slate-800 hover:bg-slate-100 aria-disabled:opacity-50"
                      aria-disabled={remove.isPending || undefined}
                      onClick={() => {
                        if (remove.isPending) return;
                        upload.reset();
                        remove.mutate(file.id, { onSuccess: () => heading.current?.focus() });
                      }}
                      aria-label={`Remove ${file.name}`}
                    >
                      Remove
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          {editable ? (
            <div className="mt-3">
              <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
                Add an attachment (PDF, PNG or JPEG, at most 10 MB)
              </label>
              <FileInput
                inputRef={input}
                id={inputId}
                accept="application/pdf,image/png,image/jpeg"
                busy={upload.isPending}
                failure={upload.error}
                problemId={`${inputId}-problem`}
                onChange={choose}
              />
              {upload.isPending ? <p className="mt-1 text-sm text-slate-600">Uploading…</p> : null}
            </div>
          ) : null}
          {error ? (
            <p id={`${inputId}-problem`} role="alert" className="mt-2 text-sm text-red-800">
              {error instanceof RequestError ? error.message : "The change failed."}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
