// A resource's fields, declared once: one row per stored column (docs/architecture.md "Adding a
// field"). Every list a layer needs is derived from the table: the row select and column map (the
// services), the SQL types an update casts to, the audit values, the zod answer schema (here) and
// the answer's SQL (lib/api/json/answer-sql.ts). `prisma/schema.prisma` stays the truth of storage;
// test/schemas/field-tables.test.ts holds every table equal to its Prisma model.
import { z } from "zod";

/** The objects of an answer that group some of its fields. */
export type TSection = "_permissions" | "_private_ownerside" | "lifecycle_settings" | "lifecycle_state";

/** A column's SQL type, as an update casts a value to it (enums by their PostgreSQL names). */
export type TSqlType = "int" | "text" | "boolean" | "timestamptz" | "date" | "jsonb" | (string & {});

export interface TFieldSpec {
  /** The SQL column; the field's name in snake_case when omitted. */
  readonly column?: string;
  readonly sql: TSqlType;
  /** May the column hold NULL (Prisma's `?`). */
  readonly nullable?: boolean;
  /**
   * In the answer: under `name`, inside the object `in` when given, of zod type `type` (nullable
   * when the column is); `last`: after the sections and `_links` (a party's `type`, where the API
   * has always answered it). Omitted: never answered.
   */
  readonly answer?: { readonly name: string; readonly in?: TSection; readonly type: z.ZodType; readonly last?: true };
  /** A request may write it: the rule it is written under (docs/api.md names it). */
  readonly write?: string;
  /** Audit events record it (its value before and after a change, and on creation). */
  readonly audit?: boolean;
  /** Frozen once the contract is published (`"published"`), or once the participant decided (`"decided"`). */
  readonly frozen?: "published" | "decided";
  /** Not read by any answer or rule outside the operations that own it: why (secrets, job state). */
  readonly internal?: string;
}

export type TFieldTable = Readonly<Record<string, TFieldSpec>>;

/** Checks a table's shape where it is written, keeping its keys and rows as literal types. */
export const fieldTable = <const T extends TFieldTable>(table: T): T => table;

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The SQL column of field `name`. */
export const columnOf = (name: string, spec: TFieldSpec): string => spec.column ?? snakeCase(name);


type TRowFields<T extends TFieldTable> = { [K in keyof T]: T[K] extends { internal: string } ? never : K }[keyof T];

/** The fields a row of the resource carries (all but the internal ones), as a Prisma `select`. */
export function rowSelectOf<T extends TFieldTable>(table: T): { readonly [K in TRowFields<T>]: true } {
  return Object.fromEntries(Object.entries(table).filter(([, spec]) => !spec.internal).map(([name]) => [name, true])) as never;
}

/** The column of each row field, for rows PostgreSQL assembles as JSON (`jsonColumns`). */
export function rowColumnsOf<T extends TFieldTable>(table: T): { readonly [K in TRowFields<T>]: string } {
  return Object.fromEntries(Object.entries(table).filter(([, spec]) => !spec.internal).map(([name, spec]) => [name, columnOf(name, spec)])) as never;
}

/** The SQL type of each field, for the casts of a write. */
export function sqlTypesOf<T extends TFieldTable>(table: T): { readonly [K in keyof T]: string } {
  return Object.fromEntries(Object.entries(table).map(([name, spec]) => [name, spec.sql])) as never;
}

/** The fields a request may write, in table order. */
export function writableFieldsOf<T extends TFieldTable>(table: T): TWritableFields<T>[] {
  return Object.entries(table).filter(([, spec]) => spec.write).map(([name]) => name) as never;
}

/** The names of the fields a request may write. */
export type TWritableFields<T> = { [K in keyof T]: T[K] extends { write: string } ? K & string : never }[keyof T];

/** The answer's names a request may not write: top-level fields and whole sections without a writable field. */
export function readOnlyAnswerNamesOf(table: TFieldTable): string[] {
  const names = new Set<string>();
  const writableSections = new Set(Object.values(table).flatMap((spec) => (spec.write && spec.answer?.in ? [spec.answer.in] : [])));
  for (const spec of Object.values(table)) {
    if (!spec.answer || spec.write) continue;
    const name = spec.answer.in ?? spec.answer.name;
    if (!spec.answer.in || !writableSections.has(spec.answer.in)) names.add(name);
  }
  return [...names];
}

/** The fields frozen at `moment`, in table order. */
export function frozenFieldsOf<T extends TFieldTable, M extends "published" | "decided">(table: T, moment: M): TFrozenFields<T, M>[] {
  return Object.entries(table).filter(([, spec]) => spec.frozen === moment).map(([name]) => name) as never;
}

type TFrozenFields<T, M> = { [K in keyof T]: T[K] extends { frozen: M } ? K & string : never }[keyof T];

/** A nested answer path: the section (if any) and the name inside it. */
export function answerPathOf(name: string, spec: TFieldSpec): readonly string[] {
  if (!spec.answer) throw new Error(`${name} is not in the answer`);
  return spec.answer.in ? [spec.answer.in, spec.answer.name] : [spec.answer.name];
}

/** Puts `value` at `path` in `target` (a section object is made on first use). */
function place(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const inner = (target[head] ??= {}) as Record<string, unknown>;
  place(inner, rest, value);
}

/** A row's value as the API writes it: a date as `YYYY-MM-DD`, a timestamp in ISO 8601. */
export function jsonValueOf(spec: TFieldSpec, value: unknown): unknown {
  if (!(value instanceof Date)) return value;
  return spec.sql === "date" ? value.toISOString().slice(0, 10) : value.toISOString();
}

/**
 * The audited fields of `row` by their answer names (sections nested), as audit events record
 * them; `only` narrows to some fields (a change's).
 */
export function auditValuesOf<T extends TFieldTable>(table: T, row: Readonly<Record<string, unknown>>, only?: readonly string[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    if (!spec.audit || (only && !only.includes(name))) continue;
    place(values, answerPathOf(name, spec), jsonValueOf(spec, row[name]));
  }
  return values;
}

type TTypeOf<S> = S extends { answer: { type: infer Z extends z.ZodType } } ? (S extends { nullable: true } ? z.ZodNullable<Z> : Z) : never;
type TTopShape<T> = {
  [K in keyof T as T[K] extends { answer: { in: TSection } } ? never : T[K] extends { answer: { name: infer N extends string } } ? N : never]: TTypeOf<T[K]>;
};
type TSectionShape<T, S extends TSection> = {
  [K in keyof T as T[K] extends { answer: { name: infer N extends string; in: S } } ? N : never]: TTypeOf<T[K]>;
};
type TSections<T> = { [S in TSection as keyof TSectionShape<T, S> extends never ? never : S]: z.ZodObject<TSectionShape<T, S>> };
/** The zod shape of a table's answer, `computed` fields added. */
export type TAnswerShape<T, C extends z.ZodRawShape> = TTopShape<T> & C & TSections<T>;

/**
 * The answered fields as a zod shape: the top-level ones in table order, then the fields the
 * answer's producer computes (`computed`), then each section as an object, then the `last` ones.
 */
export function answerShapeOf<T extends TFieldTable, C extends z.ZodRawShape = {}>(table: T, computed: C = {} as C): TAnswerShape<T, C> {
  const top: Record<string, z.ZodType> = {};
  const last: Record<string, z.ZodType> = {};
  const sections: Partial<Record<TSection, Record<string, z.ZodType>>> = {};
  for (const [, spec] of Object.entries(table)) {
    if (!spec.answer) continue;
    const type = spec.nullable ? spec.answer.type.nullable() : spec.answer.type;
    if (spec.answer.in) (sections[spec.answer.in] ??= {})[spec.answer.name] = type;
    else (spec.answer.last ? last : top)[spec.answer.name] = type;
  }
  const objects = Object.fromEntries(Object.entries(sections).map(([name, shape]) => [name, z.object(shape)]));
  return { ...top, ...computed, ...objects, ...last } as never;
}

/** The fields answered inside `section`, as [field, spec] in table order. */
function sectionFields(table: TFieldTable, section: TSection): [string, TFieldSpec][] {
  return Object.entries(table).filter(([, spec]) => spec.answer?.in === section);
}

type TSectionFields<T, S> = { [K in keyof T]: T[K] extends { answer: { in: S } } ? K : never }[keyof T];

/** The fields answered inside `section`, as a Prisma `select`. */
export function sectionSelectOf<T extends TFieldTable, S extends TSection>(table: T, section: S): { readonly [K in TSectionFields<T, S>]: true } {
  return Object.fromEntries(sectionFields(table, section).map(([name]) => [name, true])) as never;
}

/** A section's values in `row`, by their answer names, as the API writes them. */
export function sectionValuesOf(table: TFieldTable, section: TSection, row: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(sectionFields(table, section).map(([name, spec]) => [spec.answer!.name, jsonValueOf(spec, row[name] ?? null)]));
}

/** The columns `values` (a section's, by answer name) are stored in: by field name, dates as Prisma takes them. */
export function sectionColumnsOf(table: TFieldTable, section: TSection, values: object): Record<string, unknown> {
  return Object.fromEntries(
    sectionFields(table, section).map(([name, spec]) => {
      const value = (values as Record<string, unknown>)[spec.answer!.name] ?? null;
      return [name, spec.sql === "date" && typeof value === "string" ? new Date(`${value}T00:00:00.000Z`) : value];
    }),
  );
}

/** The column of each field answered inside `section`, by field name (for rows PostgreSQL assembles). */
export function sectionColumnMapOf(table: TFieldTable, section: TSection): Record<string, string> {
  return Object.fromEntries(sectionFields(table, section).map(([name, spec]) => [name, columnOf(name, spec)]));
}
