import type { TOpenApiDocument } from "@/lib/client/v1";
import { MarkdownText, inline } from "./markdown-text";
import { errorCodeAnchor, operationAnchor, operationsByTag } from "./openapi-model";
import { MethodBadge, OperationView } from "./operation-view";
import { SchemaFields, schemaAnchor } from "./schema-view";

const h2 = "scroll-mt-4 text-xl font-semibold tracking-tight text-slate-900";
const tagAnchor = (tag: string) => `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

/** The whole document: overview, contents, operations by tag, error codes, schemas. */
export function OpenApiView({ document }: { document: TOpenApiDocument }) {
  const groups = operationsByTag(document);
  const schemes = Object.entries(document.components?.securitySchemes ?? {});
  const errorCodes = document["x-error-codes"] ?? [];
  const schemas = Object.entries(document.components?.schemas ?? {});

  return (
    <div className="space-y-10">
      <section aria-labelledby="overview" className="space-y-3">
        <h2 id="overview" className={h2}>
          {document.info.title} <span className="text-base font-normal text-slate-600">version {document.info.version}</span>
        </h2>
        {document.info.description ? <MarkdownText text={document.info.description} /> : null}
        {document.servers?.[0] ? (
          <p className="text-sm text-slate-700">
            Base URL: <code className="font-mono">{document.servers[0].url}</code>
          </p>
        ) : null}
        {schemes.length > 0 ? (
          <>
            <h3 className="text-base font-semibold text-slate-900">Authentication headers</h3>
            <dl className="space-y-2 text-sm">
              {schemes.map(([id, scheme]) => (
                <div key={id}>
                  <dt>
                    <code className="font-mono font-semibold text-slate-900">{scheme.name ?? id}</code>
                  </dt>
                  <dd className="text-slate-700">{scheme.description ? inline(scheme.description) : scheme.type}</dd>
                </div>
              ))}
            </dl>
          </>
        ) : null}
      </section>

      <nav aria-labelledby="contents" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="contents" className="text-base font-semibold text-slate-900">
          Contents
        </h2>
        <ul className="mt-2 grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2">
          {groups.map(({ tag, operations }) => (
            <li key={tag}>
              <a href={`#${tagAnchor(tag)}`} className="font-semibold text-blue-700 underline hover:text-blue-900">
                {tag}
              </a>
              <ul className="mt-1 space-y-1">
                {operations.map((entry) => (
                  <li key={entry.id} className="flex items-baseline gap-2">
                    <MethodBadge method={entry.method} />
                    <a href={`#${operationAnchor(entry)}`} className="text-blue-700 underline hover:text-blue-900">
                      {entry.operation.summary ?? entry.path}
                    </a>
                  </li>
                ))}
              </ul>
            </li>
          ))}
          <li>
            <a href="#error-codes" className="font-semibold text-blue-700 underline hover:text-blue-900">
              Error codes
            </a>
          </li>
          <li>
            <a href="#schemas" className="font-semibold text-blue-700 underline hover:text-blue-900">
              Schemas
            </a>
          </li>
        </ul>
      </nav>

      {groups.map(({ tag, operations }) => (
        <section key={tag} aria-labelledby={tagAnchor(tag)} className="space-y-4">
          <h2 id={tagAnchor(tag)} className={h2}>
            {tag}
          </h2>
          {operations.map((entry) => (
            <OperationView key={entry.id} document={document} entry={entry} />
          ))}
        </section>
      ))}

      <section aria-labelledby="error-codes" className="space-y-3">
        <h2 id="error-codes" className={h2}>
          Error codes
        </h2>
        <p className="text-sm text-slate-700">
          Every error body carries one of these in <code className="font-mono">error_code</code>; it begins with the HTTP status.
        </p>
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">Error codes</caption>
            <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2">Code</th>
                <th scope="col" className="px-3 py-2">Status</th>
                <th scope="col" className="px-3 py-2">Key</th>
                <th scope="col" className="px-3 py-2">Meaning</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 align-top">
              {errorCodes.map((code) => (
                <tr key={code.code} id={errorCodeAnchor(code.code)} className="scroll-mt-4 target:bg-amber-50">
                  <th scope="row" className="px-3 py-2 text-left font-mono font-semibold text-slate-900">
                    {code.code}
                  </th>
                  <td className="px-3 py-2 text-slate-700">
                    {code.status} {code.title}
                  </td>
                  <td className="px-3 py-2">
                    <code className="font-mono text-slate-800">{code.key}</code>
                  </td>
                  <td className="px-3 py-2 text-slate-700">{inline(code.description)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="schemas" className="space-y-4">
        <h2 id="schemas" className={h2}>
          Schemas
        </h2>
        {schemas.map(([name, schema]) => (
          <section
            key={name}
            id={schemaAnchor(name)}
            aria-labelledby={`${schemaAnchor(name)}-title`}
            className="scroll-mt-4 rounded-lg border border-slate-200 bg-white p-4"
          >
            <h3 id={`${schemaAnchor(name)}-title`} className="font-mono text-base font-semibold text-slate-900">
              {name}
            </h3>
            {schema.description && !(schema.oneOf ?? schema.anyOf) && schema.properties ? (
              <MarkdownText text={schema.description} className="mt-1" />
            ) : null}
            <div className="mt-2">
              <SchemaFields schema={schema} name={name} />
            </div>
          </section>
        ))}
      </section>
    </div>
  );
}
