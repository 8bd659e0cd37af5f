// Each resource's field table (lib/schemas/field-table.ts) against the truth of storage,
// prisma/schema.prisma: the same fields, columns, SQL types and nullability. A field added to a
// model and not to its table, or declared with the wrong column or type, fails here.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { answerPathOf, columnOf, type TFieldTable, writableFieldsOf } from "@/lib/schemas/field-table";
import { PARTICIPANT_FIELDS, ZCreateParticipantRequestSchema } from "@/lib/schemas/participant";
import { CONTRACT_FIELDS, ZCreateContractRequestSchema } from "@/lib/schemas/contract";
import { ZLifecycleSettingsRequestSchema } from "@/lib/schemas/lifecycle";
import { DATA_FIELD_FIELDS, ZUpdateDataFieldRequestSchema } from "@/lib/schemas/data-field";
import { PARTY_FIELDS, ZCreateCompanyPartyRequestSchema, ZCreateIndividualPartyRequestSchema } from "@/lib/schemas/party";
import { TEMPLATE_FIELDS } from "@/lib/schemas/template";
import { PLACEMENT_FIELDS, ZCreatePlacementRequestSchema } from "@/lib/schemas/placement";
import { CONTRACT_REMINDER_FIELDS, ZCreateContractReminderRequestSchema } from "@/lib/schemas/lifecycle";
import { TEMPLATE_TYPE_FIELDS } from "@/lib/schemas/template-type";

const SCHEMA = readFileSync(new URL("../../prisma/schema.prisma", import.meta.url), "utf8");

/** The `@@map` name of each enum: its PostgreSQL type. */
const ENUMS = new Map([...SCHEMA.matchAll(/^enum (\w+) \{([^}]*)\}/gm)].map(([, name, body]) => [name!, /@@map\("(\w+)"\)/.exec(body!)?.[1] ?? name!]));
const MODELS = new Set([...SCHEMA.matchAll(/^model (\w+) \{/gm)].map(([, name]) => name!));

interface TPrismaField {
  column: string;
  sql: string;
  nullable: boolean;
}

/** The scalar fields of `model` as prisma/schema.prisma declares them. */
function scalarFields(model: string): Map<string, TPrismaField> {
  const body = new RegExp(`^model ${model} \\{\n([\\s\\S]*?)^\\}`, "m").exec(SCHEMA)?.[1];
  if (!body) throw new Error(`no model ${model}`);
  const fields = new Map<string, TPrismaField>();
  for (const line of body.split("\n").map((l) => l.trim())) {
    const match = /^(\w+)\s+(\w+)(\[\])?(\?)?(.*)$/.exec(line);
    if (!match || line.startsWith("//") || line.startsWith("@@")) continue;
    const [, name, type, list, optional, rest] = match as unknown as [string, string, string, string | undefined, string | undefined, string];
    if (MODELS.has(type) || list) continue; // a relation
    const sql =
      type === "Int" ? "int" : type === "Float" ? "float8" : type === "String" ? "text" : type === "Boolean" ? "boolean" : type === "Json" ? "jsonb"
      : type === "DateTime" ? (rest.includes("@db.Date") ? "date" : "timestamptz") : (ENUMS.get(type) ?? `unknown type ${type}`);
    fields.set(name, { column: /@map\("(\w+)"\)/.exec(rest)?.[1] ?? name, sql, nullable: optional === "?" });
  }
  return fields;
}

const TABLES: [string, TFieldTable][] = [
  ["Contract", CONTRACT_FIELDS],
  ["ContractDataField", DATA_FIELD_FIELDS],
  ["Participant", PARTICIPANT_FIELDS],
  ["Party", PARTY_FIELDS],
  ["Template", TEMPLATE_FIELDS],
  ["TemplateType", TEMPLATE_TYPE_FIELDS],
  ["Placement", PLACEMENT_FIELDS],
  ["ContractReminder", CONTRACT_REMINDER_FIELDS],
];

describe.each(TABLES)("the field table of %s", (model, table) => {
  it("lists every scalar field of the Prisma model, and nothing else", () => {
    expect(Object.keys(table).sort()).toEqual([...scalarFields(model).keys()].sort());
  });

  it("gives each field the model's column, SQL type and nullability", () => {
    const stored = scalarFields(model);
    const declared = Object.entries(table).map(([name, spec]) => [name, { column: columnOf(name, spec), sql: spec.sql, nullable: spec.nullable ?? false }]);
    expect(Object.fromEntries(declared)).toEqual(Object.fromEntries(stored));
  });

  it("audits only answered fields, and answers no internal one", () => {
    for (const [name, spec] of Object.entries(table)) {
      if (spec.audit) expect(spec.answer, `${name} is audited`).toBeDefined();
      if (spec.internal) expect([spec.answer, spec.write, spec.audit], `${name} is internal`).toEqual([undefined, undefined, undefined]);
    }
  });
});

it("a participant request writes exactly the fields the table marks writable", () => {
  const requestKeys = Object.keys(ZCreateParticipantRequestSchema.shape).sort();
  const writable = [...new Set(writableFieldsOf(PARTICIPANT_FIELDS).map((field) => answerPathOf(field, PARTICIPANT_FIELDS[field])[0]!))].sort();
  expect(requestKeys).toEqual(writable);
});

it("a contract's creation writes the fields the table marks writable, and its parties and data field values", () => {
  const writable = new Set(writableFieldsOf(CONTRACT_FIELDS).map((field) => answerPathOf(field, CONTRACT_FIELDS[field])[0]!));
  expect(Object.keys(ZCreateContractRequestSchema.shape).sort()).toEqual([...writable, "parties", "data_fields"].sort());
});

it("the duration settings a request writes are the table's lifecycle_settings, each by its answer name", () => {
  const settings = writableFieldsOf(CONTRACT_FIELDS).flatMap((field) => {
    const path = answerPathOf(field, CONTRACT_FIELDS[field]);
    return path[0] === "lifecycle_settings" ? [path[1]!] : [];
  });
  expect(Object.keys(ZLifecycleSettingsRequestSchema.shape).sort()).toEqual(settings.sort());
});

it("a party request writes the fields the table marks writable, and its people", () => {
  const writable = writableFieldsOf(PARTY_FIELDS).map((field) => answerPathOf(field, PARTY_FIELDS[field])[0]!);
  expect(Object.keys(ZCreateCompanyPartyRequestSchema.shape).sort()).toEqual([...writable, "participants"].sort());
  // An individual party sends name and number too, ignored: they are its participant's.
  expect(Object.keys(ZCreateIndividualPartyRequestSchema.shape).sort()).toEqual([...writable, "participant"].sort());
});

it("a data field request writes exactly the fields the table marks writable", () => {
  const writable = writableFieldsOf(DATA_FIELD_FIELDS).map((field) => answerPathOf(field, DATA_FIELD_FIELDS[field])[0]!);
  expect(Object.keys(ZUpdateDataFieldRequestSchema.shape).sort()).toEqual(writable.sort());
});

it("a placement request writes exactly the fields the table marks writable", () => {
  const writable = writableFieldsOf(PLACEMENT_FIELDS).map((field) => answerPathOf(field, PLACEMENT_FIELDS[field])[0]!);
  expect(Object.keys(ZCreatePlacementRequestSchema.shape).sort()).toEqual(writable.sort());
});

it("an internal reminder request writes the fields the table marks writable, and its recipient", () => {
  const writable = writableFieldsOf(CONTRACT_REMINDER_FIELDS).map((field) => answerPathOf(field, CONTRACT_REMINDER_FIELDS[field])[0]!);
  expect(Object.keys(ZCreateContractReminderRequestSchema.shape).sort()).toEqual([...writable, "recipient_id"].sort());
});
