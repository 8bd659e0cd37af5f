import type { ReactNode } from "react";
import type { TJsonSchema } from "@/lib/client/v1";
import { inline } from "./markdown-text";

// JSON Schema (as zod-openapi writes it) in words: a type label with links to named schemas, and a
// table of fields with nested objects flattened to dotted paths (`_links.self.href`), which reads
// better than nested tables and keeps one table per schema.

export const schemaAnchor = (name: string) => `schema-${name}`;
export const refName = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);

const link = "font-medium text-blue-700 underline hover:text-blue-900";

// zod writes these bounds on every integer; they say nothing a reader needs.
const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

export function TypeLabel({ schema }: { schema: TJsonSchema }): ReactNode {
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return (
      <a href={`#${schemaAnchor(name)}`} className={link}>
        {name}
      </a>
    );
  }
  const union = schema.oneOf ?? schema.anyOf;
  if (union) return joinNodes(union.map((part, i) => <TypeLabel key={i} schema={part} />), " or ");
  if (schema.const !== undefined) return <code className="font-mono">{JSON.stringify(schema.const)}</code>;
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  return joinNodes(
    types.map((type) => {
      if (type === "array" && schema.items) {
        return (
          <span key={type}>
            array of <TypeLabel schema={schema.items} />
          </span>
        );
      }
      if (type === "object" && !schema.properties && typeof schema.additionalProperties === "object") {
        return (
          <span key={type}>
            map of <TypeLabel schema={schema.additionalProperties} />
          </span>
        );
      }
      return <span key={type}>{schema.format ? `${type} (${schema.format})` : type}</span>;
    }),
    " or ",
  );
}

function joinNodes(nodes: ReactNode[], separator: string): ReactNode {
  if (nodes.length === 0) return <span>any</span>;
  return nodes.flatMap((node, i) => (i === 0 ? [node] : [separator, node]));
}

/** The rules of a value beyond its type: allowed values, lengths, bounds, default, example. */
export function Constraints({ schema }: { schema: TJsonSchema }) {
  const notes: ReactNode[] = [];
  if (schema.enum) notes.push(<>One of: {joinNodes(schema.enum.map((v, i) => <code key={i} className="font-mono">{String(v)}</code>), ", ")}.</>);
  if (schema.minLength !== undefined || schema.maxLength !== undefined) {
    notes.push(`${schema.minLength ?? 0}–${schema.maxLength ?? "∞"} characters.`);
  }
  if (schema.minItems !== undefined || schema.maxItems !== undefined) {
    notes.push(schema.maxItems === undefined ? `At least ${schema.minItems} item(s).` : `${schema.minItems ?? 0}–${schema.maxItems} items.`);
  }
  const min = schema.minimum !== undefined && !SAFE_INTEGER_BOUNDS.has(schema.minimum) ? schema.minimum : undefined;
  const max = schema.maximum !== undefined && !SAFE_INTEGER_BOUNDS.has(schema.maximum) ? schema.maximum : undefined;
  if (min !== undefined || max !== undefined) notes.push(`${min ?? "−∞"} to ${max ?? "∞"}.`);
  if (schema.pattern) notes.push(<>Pattern <code className="font-mono">{schema.pattern}</code>.</>);
  if (schema.default !== undefined) notes.push(<>Default <code className="font-mono">{JSON.stringify(schema.default)}</code>.</>);
  if (schema.example !== undefined) notes.push(<>Example <code className="font-mono">{JSON.stringify(schema.example)}</code>.</>);
  if (notes.length === 0) return null;
  return (
    <span className="block text-xs text-slate-600">
      {notes.map((note, i) => (
        <span key={i}>{i > 0 ? " " : ""}{note}</span>
      ))}
    </span>
  );
}

type TRow = { path: string; schema: TJsonSchema; required: boolean };

/** An object's fields, inline objects (and arrays of them) flattened into dotted paths. */
function fieldRows(schema: TJsonSchema, prefix = "", depth = 0): TRow[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const rows: TRow[] = [{ path: `${prefix}${name}`, schema: property, required: required.has(name) }];
    const items = property.type === "array" ? property.items : undefined;
    const nested = items && !items.$ref ? items : property;
    if (!nested.$ref && nested.properties && depth < 5) {
      rows.push(...fieldRows(nested, `${prefix}${name}${nested === items ? "[]" : ""}.`, depth + 1));
    }
    return rows;
  });
}

/** A schema as readers want it: a table of fields, or for a union / enum, what it can be. */
export function SchemaFields({ schema, name }: { schema: TJsonSchema; name: string }) {
  const union = schema.oneOf ?? schema.anyOf;
  if (union) {
    return (
      <p className="text-sm text-slate-700">
        One of: <TypeLabel schema={{ oneOf: union }} />
        {schema.description ? <span className="block">{inline(schema.description)}</span> : null}
      </p>
    );
  }
  const rows = fieldRows(schema);
  if (rows.length === 0) {
    return (
      <p className="text-sm text-slate-700">
        <TypeLabel schema={schema} />
        {schema.description ? <> · {inline(schema.description)}</> : null}
        <Constraints schema={schema} />
      </p>
    );
  }
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Fields of {name}</caption>
        <thead className="text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="py-1.5 pr-4">Field</th>
            <th scope="col" className="py-1.5 pr-4">Type</th>
            <th scope="col" className="py-1.5">Description</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 align-top">
          {rows.map((row) => (
            <tr key={row.path}>
              <th scope="row" className="py-1.5 pr-4 text-left font-normal">
                <code className="font-mono text-slate-900">{row.path}</code>
                {row.required ? <span className="ml-1.5 text-xs font-medium text-red-800">required</span> : null}
              </th>
              <td className="py-1.5 pr-4 whitespace-nowrap text-slate-700">
                <TypeLabel schema={row.schema} />
              </td>
              <td className="py-1.5 text-slate-700">
                {row.schema.description ? inline(row.schema.description) : null}
                <Constraints schema={row.schema} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
