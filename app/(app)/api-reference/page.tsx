import type { Metadata } from "next";
import { ApiReferenceLoader } from "./_components/api-reference-loader";

export const metadata: Metadata = { title: "API reference" };

export default function ApiReferencePage() {
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">API reference</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600">
        The <code className="font-mono">/v1</code> API, as its OpenAPI document describes it (
        <a href="/v1/openapi.json" className="font-medium text-blue-700 underline hover:text-blue-900">
          /v1/openapi.json
        </a>
        ). The document is generated from the same schemas the API validates with, so it is always current.
      </p>
      <ApiReferenceLoader />
    </div>
  );
}
