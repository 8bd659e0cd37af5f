import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { MAX_ID } from "@/lib/schemas/common";
import { TemplateBodyEditor } from "./_components/template-body-editor";

export const metadata: Metadata = { title: "Template text" };

export default async function TemplatePage({ params }: { params: Promise<{ template_id: string }> }) {
  const raw = (await params).template_id;
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
  if (id < 1 || id > MAX_ID) notFound();
  return <TemplateBodyEditor templateId={id} />;
}
