import type {
  TOpenApiDocument,
  TOpenApiErrorCode,
  TOpenApiOperation,
  TOpenApiParameter,
  TOpenApiRef,
  TOpenApiResponse,
} from "@/lib/client/v1";

// Reading the document: following `$ref`s, grouping operations by tag, and the error codes each
// operation can answer with. Kept apart from the rendering so both stay small.

export const METHODS = ["get", "post", "put", "patch", "delete"] as const;
export type TMethod = (typeof METHODS)[number];

export type TOperationEntry = { id: string; method: TMethod; path: string; operation: TOpenApiOperation };

const isRef = (value: object): value is TOpenApiRef => "$ref" in value;

/** The object a local `$ref` (`#/components/responses/BadRequest`) points at, or the value itself. */
export function resolve<T extends object>(document: TOpenApiDocument, value: T | TOpenApiRef): T | undefined {
  if (!isRef(value)) return value;
  let target: unknown = document;
  for (const segment of value.$ref.replace(/^#\//, "").split("/")) {
    target = (target as Record<string, unknown> | undefined)?.[segment];
  }
  return target as T | undefined;
}

export const operationAnchor = (entry: Pick<TOperationEntry, "id">) => `op-${entry.id}`;
export const errorCodeAnchor = (code: number) => `error-${code}`;

/** Operations by tag, in the document's tag order (untagged ones last, under "Other"). */
export function operationsByTag(document: TOpenApiDocument): { tag: string; operations: TOperationEntry[] }[] {
  const groups = new Map<string, TOperationEntry[]>((document.tags ?? []).map((tag) => [tag.name, []]));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? "Other";
      const entry = { id: operation.operationId ?? `${method}-${path}`.replace(/[^A-Za-z0-9_-]/g, "-"), method, path, operation };
      groups.set(tag, [...(groups.get(tag) ?? []), entry]);
    }
  }
  return [...groups].filter(([, operations]) => operations.length > 0).map(([tag, operations]) => ({ tag, operations }));
}

export function parametersOf(document: TOpenApiDocument, operation: TOpenApiOperation): TOpenApiParameter[] {
  return (operation.parameters ?? []).flatMap((parameter) => resolve(document, parameter) ?? []);
}

export function responsesOf(document: TOpenApiDocument, operation: TOpenApiOperation): { status: string; response: TOpenApiResponse }[] {
  return Object.entries(operation.responses ?? {}).flatMap(([status, value]) => {
    const response = resolve(document, value);
    return response ? [{ status, response }] : [];
  });
}

/** The documented `error_code`s an operation can answer with: those of its error statuses. */
export function errorCodesOf(document: TOpenApiDocument, operation: TOpenApiOperation): TOpenApiErrorCode[] {
  const statuses = new Set(Object.keys(operation.responses ?? {}).map(Number));
  return (document["x-error-codes"] ?? []).filter((code) => statuses.has(code.status));
}

/** The first paragraph of a description; the rest of an error response's is its code list, shown apart. */
export const firstParagraph = (text: string) => text.split(/\n\s*\n/)[0] ?? "";
