"use client";

// The /v1 OpenAPI document rendered by Swagger UI, the maintained reference component chosen for
// this page because it runs under the pages' strict CSP as it is: its styles are one static
// stylesheet (bundled and served from this origin like the app's own), it inserts no <style>
// elements, runs no eval, and loads no fonts, scripts or images from elsewhere (its inline style
// attributes are allowed by style-src-attr). Why this one, and why swagger-ui-dist's self-contained
// bundle rather than swagger-ui-react: docs/architecture.md (dependencies).
import { useEffect, useRef } from "react";
import SwaggerUIBundle, { type TSwaggerSystem } from "swagger-ui-dist/swagger-ui-bundle.js";
import "swagger-ui-dist/swagger-ui.css";
import "./swagger-reference.css";
import type { TOpenApiDocument } from "@/lib/client/v1";

// Operation paths as plain text: Swagger UI makes each one a link inside the operation's toggle
// button (a control within a control, which keyboard and screen-reader users cannot reach on its own),
// and the button puts the same #/<tag>/<operationId> in the address anyway. Built with Swagger UI's
// own React (system.React), as its components must be.
const plainDeepLinks = (system: TSwaggerSystem) => ({
  components: { DeepLink: ({ text }: { text: string }) => system.React.createElement("span", null, text) },
});

export function SwaggerReference({ document }: { document: TOpenApiDocument }) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!container.current) return;
    // Swagger UI renders with its own (bundled) React into an element of its own; leaving the page
    // (or React's development double run of effects) drops that element, and with it all of it.
    const domNode = window.document.createElement("div");
    container.current.append(domNode);
    SwaggerUIBundle({
      domNode,
      spec: document,
      // Without the standalone top bar (a URL field that would load any other document).
      layout: "BaseLayout",
      plugins: [plainDeepLinks],
      // Read-only, like the reference it replaced: no "Try it out" (calls from here would act with
      // the signed-in browser's cookies, and API clients authenticate with tokens anyway).
      supportedSubmitMethods: [],
      tryItOutEnabled: false,
      // Never take a configuration (e.g. another document's URL) from the page's query string, and
      // never send the document to the public validator.
      queryConfigEnabled: false,
      validatorUrl: null,
      // Tags open, operations closed; opening one puts #/<tag>/<operationId> in the address, and
      // such an address opens that operation and scrolls to it.
      docExpansion: "list",
      deepLinking: true,
      // Request and response schemas show as schemas (fields, types, descriptions) first, the
      // generated example one click away.
      defaultModelRendering: "model",
      defaultModelExpandDepth: 2,
      defaultModelsExpandDepth: 0,
      displayRequestDuration: false,
    });
    return () => domNode.remove();
  }, [document]);

  return <div ref={container} className="api-reference rounded-lg border border-slate-200 bg-white" />;
}
