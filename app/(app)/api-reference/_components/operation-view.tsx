import type { TOpenApiDocument } from "@/lib/client/v1";
import { MarkdownText, inline } from "./markdown-text";
import {
  errorCodeAnchor,
  errorCodesOf,
  firstParagraph,
  operationAnchor,
  parametersOf,
  responsesOf,
  type TMethod,
  type TOperationEntry,
} from "./openapi-model";
import { Constraints, SchemaFields, TypeLabel, refName } from "./schema-view";

const METHOD_TONES: Record<TMethod, string> = {
  get: "bg-blue-100 text-blue-800",
  post: "bg-emerald-100 text-emerald-800",
  put: "bg-amber-100 text-amber-900",
  patch: "bg-amber-100 text-amber-900",
  delete: "bg-red-100 text-red-800",
};

export function MethodBadge({ method }: { method: TMethod }) {
  return <span className={`rounded px-1.5 py-0.5 font-mono text-xs font-bold ${METHOD_TONES[method]}`}>{method.toUpperCase()}</span>;
}

const h4 = "mt-5 text-sm font-semibold text-slate-900";
const th = "py-1.5 pr-4 text-left text-xs font-semibold uppercase tracking-wide text-slate-600";

/** One operation: what it does, what it takes, what it answers, and the error codes it can answer with. */
export function OperationView({ document, entry }: { document: TOpenApiDocument; entry: TOperationEntry }) {
  const { operation, method, path } = entry;
  const headingId = operationAnchor(entry);
  const parameters = parametersOf(document, operation);
  const responses = responsesOf(document, operation);
  const errorCodes = errorCodesOf(document, operation);
  const body = operation.requestBody?.content?.["application/json"]?.schema;
  const bodySchema = body?.$ref ? document.components?.schemas?.[refName(body.$ref)] : body;

  return (
    <section aria-labelledby={headingId} className="scroll-mt-4 rounded-lg border border-slate-200 bg-white p-4">
      <h3 id={headingId} className="flex flex-wrap items-center gap-2 text-base font-semibold text-slate-900">
        <MethodBadge method={method} /> <code className="font-mono text-sm">{path}</code>
      </h3>
      {operation.summary ? <p className="mt-1 text-sm font-medium text-slate-800">{operation.summary}</p> : null}
      {operation.description ? <MarkdownText text={operation.description} className="mt-2" /> : null}
      {operation.security?.length === 0 ? <p className="mt-2 text-sm text-slate-700">No credentials needed.</p> : null}

      {parameters.length > 0 ? (
        <>
          <h4 className={h4}>Parameters</h4>
          <div className="overflow-x-auto">
            <table className="mt-1 min-w-full divide-y divide-slate-200 text-sm">
              <caption className="sr-only">Parameters of {method.toUpperCase()} {path}</caption>
              <thead>
                <tr>
                  <th scope="col" className={th}>Name</th>
                  <th scope="col" className={th}>In</th>
                  <th scope="col" className={th}>Type</th>
                  <th scope="col" className={th}>Description</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 align-top">
                {parameters.map((parameter) => (
                  <tr key={`${parameter.in}-${parameter.name}`}>
                    <th scope="row" className="py-1.5 pr-4 text-left font-normal">
                      <code className="font-mono text-slate-900">{parameter.name}</code>
                      {parameter.required ? <span className="ml-1.5 text-xs font-medium text-red-800">required</span> : null}
                    </th>
                    <td className="py-1.5 pr-4 text-slate-700">{parameter.in}</td>
                    <td className="py-1.5 pr-4 whitespace-nowrap text-slate-700">{parameter.schema ? <TypeLabel schema={parameter.schema} /> : null}</td>
                    <td className="py-1.5 text-slate-700">
                      {parameter.description ? inline(parameter.description) : null}
                      {parameter.schema ? <Constraints schema={{ ...parameter.schema, description: undefined }} /> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}

      {bodySchema ? (
        <>
          <h4 className={h4}>
            Request body{" "}
            <span className="font-normal text-slate-600">
              (application/json{operation.requestBody?.required ? ", required" : ""}
              {body?.$ref ? <>: <TypeLabel schema={body} /></> : null})
            </span>
          </h4>
          <div className="mt-1">
            <SchemaFields schema={bodySchema} name={body?.$ref ? refName(body.$ref) : "the request body"} />
          </div>
        </>
      ) : null}

      <h4 className={h4}>Responses</h4>
      <div className="overflow-x-auto">
        <table className="mt-1 min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">Responses of {method.toUpperCase()} {path}</caption>
          <thead>
            <tr>
              <th scope="col" className={th}>Status</th>
              <th scope="col" className={th}>Meaning</th>
              <th scope="col" className={th}>Body</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 align-top">
            {responses.map(({ status, response }) => {
              const schema = response.content?.["application/json"]?.schema;
              const headers = Object.keys(response.headers ?? {});
              return (
                <tr key={status}>
                  <th scope="row" className="py-1.5 pr-4 text-left font-mono font-semibold text-slate-900">
                    {status}
                  </th>
                  <td className="py-1.5 pr-4 text-slate-700">
                    {inline(firstParagraph(response.description))}
                    {headers.length > 0 ? (
                      <span className="block text-xs text-slate-600">
                        Headers: {headers.map((name, i) => <code key={name} className="font-mono">{i > 0 ? ", " : ""}{name}</code>)}
                      </span>
                    ) : null}
                  </td>
                  <td className="py-1.5 whitespace-nowrap text-slate-700">{schema ? <TypeLabel schema={schema} /> : "None"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      {errorCodes.length > 0 ? (
        <details className="mt-4 text-sm">
          <summary className="cursor-pointer font-semibold text-slate-900">Error codes ({errorCodes.length})</summary>
          <ul className="mt-2 space-y-1">
            {errorCodes.map((code) => (
              <li key={code.code}>
                <a href={`#${errorCodeAnchor(code.code)}`} className="font-mono font-medium text-blue-700 underline hover:text-blue-900">
                  {code.code}
                </a>{" "}
                <code className="font-mono text-slate-600">{code.key}</code>: {inline(code.description)}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
