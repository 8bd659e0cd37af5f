"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useMemo, useState } from "react";
import { BodyForm, bodyFormProblems, BodyPreview, PlaceholderHelp } from "@/components/body-editor";
import { ErrorState, LoadingState } from "@/components/states";
import { fetchJson } from "@/lib/client/fetch-json";
import { methodOf, pathOf, v1Queries } from "@/lib/client/v1";
import { renderDocument, type TBody, type TDocParty } from "@/lib/domain/contract-document";
import type { TTemplateDetail } from "@/lib/schemas";

/** Stand-ins for the parties, so the preview reads like a contract. */
const SAMPLE_PARTIES: TDocParty[] = [
  { name: "Your company", type: "company", identificationNumber: "", countryCode: "", myParty: true, participants: [{ name: "Your signatory", title: "", email: "", signatory: true, signState: "undecided", signStateUpdatedAt: null }] },
  { name: "The counterparty", type: "company", identificationNumber: "", countryCode: "", myParty: false, participants: [{ name: "Their signatory", title: "", email: "", signatory: true, signState: "undecided", signStateUpdatedAt: null }] },
];

/**
 * A template's text: its sections edited on the left, the contract it makes on the right (data
 * fields show their default values, or are marked), and Save. Placeholders are checked as you
 * type, and again by the API.
 */
export function TemplateBodyEditor({ templateId }: { templateId: number }) {
  const queryClient = useQueryClient();
  const query = useQuery(v1Queries.template(templateId));
  const template = query.data as TTemplateDetail | undefined;
  const [body, setBody] = useState<TBody | null>(null);
  useEffect(() => {
    if (template && body === null) setBody(template.body);
  }, [template, body]);
  const save = useMutation({
    mutationFn: (next: TBody) =>
      fetchJson<TTemplateDetail>(pathOf("updateTemplate", { template_id: templateId }), { method: methodOf("updateTemplate"), body: JSON.stringify({ body: next }) }),
    onSuccess: (saved) => queryClient.setQueryData(v1Queries.template(templateId).queryKey, saved),
  });
  const customIds = useMemo(() => template?.data_fields.map((f) => f.custom_id) ?? [], [template]);
  const problems = useMemo(() => (body ? bodyFormProblems(body, customIds, "template") : {}), [body, customIds]);
  const preview = useMemo(
    () =>
      body && template
        ? renderDocument({ name: template.name, body, parties: SAMPLE_PARTIES, dataFields: template.data_fields.map((f) => ({ customId: f.custom_id, name: f.name, value: f.default_value })) })
        : null,
    [body, template],
  );

  if (query.isPending) return <LoadingState label="Loading the template…" />;
  if (query.isError || !template) return <ErrorState title="Could not load the template." error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  if (!body || !preview) return <LoadingState label="Loading the template…" />;

  return (
    <div className="max-w-7xl">
      <p className="text-sm">
        <Link href="/templates" className="text-blue-700 underline">
          Templates
        </Link>
      </p>
      <h1 className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">{template.name}: text</h1>
      <PlaceholderHelp fields={template.data_fields}>Contracts created from this template copy this text.</PlaceholderHelp>
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <BodyForm label="Template text" body={body} onChange={setBody} problems={problems} save={save} />
        <BodyPreview title={template.name} sections={preview.sections} />
      </div>
    </div>
  );
}
