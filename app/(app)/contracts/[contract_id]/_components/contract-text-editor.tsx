"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { BodyForm, bodyFormProblems, BodyPreview, PlaceholderHelp } from "@/components/body-editor";
import { ErrorState, LoadingState } from "@/components/states";
import { layoutText, type TBody } from "@/lib/domain/contract-document";
import type { TContractDocument } from "@/lib/schemas/document";
import { allDataFieldsQuery } from "./contract-queries";
import { useUpdateContractBody } from "./document-queries";

/**
 * A draft's own text, edited with the template editor's form beside a preview filled in with the
 * contract's data fields and parties (from its document), saved with `PUT …/document` against the
 * version it opened (`etag`).
 */
export function ContractTextEditor({ contractId, document, etag, onClose }: { contractId: number; document: TContractDocument; etag: string | null; onClose: () => void }) {
  const [body, setBody] = useState<TBody>(document.body);
  const fields = useQuery(allDataFieldsQuery(contractId));
  const save = useUpdateContractBody(contractId, etag);
  const dataFields = useMemo(() => fields.data?.data.map((f) => ({ customId: f._private_ownerside.custom_id, name: f.name, value: f.value })), [fields.data]);
  const problems = useMemo(() => (dataFields ? bodyFormProblems(body, dataFields.map((f) => f.customId), "contract") : {}), [body, dataFields]);
  const preview = useMemo(() => (dataFields ? layoutText(body, dataFields, document.parties, document.signatories) : null), [body, dataFields, document]);

  if (fields.isPending) return <LoadingState label="Loading the data fields…" />;
  if (fields.isError || !preview) return <ErrorState title="Could not load the data fields." error={fields.error} onRetry={() => void fields.refetch()} retrying={fields.isFetching} />;

  return (
    <div className="mt-3">
      <PlaceholderHelp fields={dataFields!.map((f) => ({ name: f.name, custom_id: f.customId }))}>This is the contract&apos;s own text; its template stays as it is.</PlaceholderHelp>
      <div className="mt-4 grid gap-6 lg:grid-cols-2">
        <BodyForm label="Contract text editor" body={body} onChange={setBody} problems={problems} save={save}>
          <button type="button" className="rounded border border-slate-300 px-3 py-1.5 text-sm" onClick={onClose}>
            Close the editor
          </button>
        </BodyForm>
        <BodyPreview title={document.title} sections={preview.sections} headingLevel={3}>
          {preview.missingFields.length > 0 ? (
            <p className="mt-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              This text needs values for: {preview.missingFields.map((f) => f.name).join(", ")}. Publishing waits for them.
            </p>
          ) : null}
        </BodyPreview>
      </div>
    </div>
  );
}
