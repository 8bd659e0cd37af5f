"use client";

import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { ErrorState, LoadingState } from "@/components/states";
import { v1Queries } from "@/lib/client/v1";

// Both the document (~90 KB of JSON) and Swagger UI (the largest chunk of the app) load only on this
// page, in the browser, after it has painted: the reference is exempt from the page-weight budget,
// and no other page's first load carries any of it.
const SwaggerReference = dynamic(() => import("./swagger-reference").then((m) => m.SwaggerReference), {
  ssr: false,
  loading: () => <LoadingState label="Loading the API reference…" lines={6} />,
});

export function ApiReferenceLoader() {
  const document = useQuery(v1Queries.openApi());
  return (
    <div className="mt-6">
      {document.isPending ? (
        <LoadingState label="Loading the API reference…" lines={6} />
      ) : document.isError ? (
        <ErrorState
          title="Could not load the API reference."
          error={document.error}
          onRetry={() => void document.refetch()}
          retrying={document.isFetching}
        />
      ) : (
        <SwaggerReference document={document.data} />
      )}
    </div>
  );
}
