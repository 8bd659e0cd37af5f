// A template's `available_options` are read two ways, each written once: by Prisma
// (AVAILABLE_OPTIONS_SELECT, converted by toAvailableOptions: template answers, loadAvailableOptions)
// and by SQL (availableOptionsFields, already in the API's shape: a PUT participant's targets,
// contract creation). For the same template both must give the same value, key for key, in the
// same order.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryOne } from "@/lib/db/query";
import { jsonColumns } from "@/lib/db/sql";
import { createTemplate, createWorkspace } from "@/lib/db/seed/factories";
import { Prisma } from "@/lib/generated/prisma/client";
import type { TAvailableOptions } from "@/lib/schemas";
import { availableOptionsFields } from "@/lib/services/templates/available-options-fields";
import { AVAILABLE_OPTIONS_SELECT, toAvailableOptions } from "@/lib/services/templates/available-options-row";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";

let db: TestDatabase;
const templates: Record<"usual" | "reordered" | "tied" | "empty", number> = { usual: 0, reordered: 0, tied: 0, empty: 0 };
beforeAll(async () => {
  db = await createTestDatabase();
  const prisma = db.prisma;
  const workspaceIds = [(await createWorkspace(prisma, { name: "Options" })).id];
  templates.usual = (await createTemplate(prisma, { workspaceIds })).id;
  // In neither the names' nor the enums' order, the preferred one not first, requirements of its own.
  templates.reordered = (
    await createTemplate(prisma, {
      workspaceIds,
      deliveryChannels: ["sms", { name: "same_device", preferred: true, requiredParticipantAttributes: [] }, "email", { name: "email_and_sms", requiredParticipantAttributes: ["phone_number", "email"] }],
      signMethods: ["swedish_bankid", "standard_esign", { name: "handwritten_signature", preferred: true }],
      twoStepMethods: ["sms", "none", { name: "email", preferred: true, requiredParticipantAttributes: ["email", "phone_number"] }],
    })
  ).id;
  // Equal positions: the name breaks the tie.
  templates.tied = (
    await createTemplate(prisma, { workspaceIds, deliveryChannels: ["sms", "email", "none"], signMethods: ["sms", "standard_esign"], twoStepMethods: ["sms", "none"] })
  ).id;
  const tied = { where: { templateId: templates.tied }, data: { position: 0 } };
  await prisma.templateDeliveryChannel.updateMany(tied);
  await prisma.templateSignMethod.updateMany(tied);
  await prisma.templateTwoStepMethod.updateMany(tied);
  // No options at all.
  templates.empty = (await createTemplate(prisma, { workspaceIds })).id;
  const none = { where: { templateId: templates.empty } };
  await prisma.templateDeliveryChannel.deleteMany(none);
  await prisma.templateSignMethod.deleteMany(none);
  await prisma.templateTwoStepMethod.deleteMany(none);
});
afterAll(() => db.cleanup());

const SQL_OPTIONS = Prisma.raw(jsonColumns("t", {}, availableOptionsFields("t.id")));

async function readBySql(templateId: number): Promise<TAvailableOptions> {
  const row = await queryOne<{ options: TAvailableOptions }>(db.prisma, Prisma.sql`SELECT ${SQL_OPTIONS} AS options FROM templates t WHERE t.id = ${templateId}::int`);
  return row!.options;
}

async function readByPrisma(templateId: number): Promise<TAvailableOptions> {
  return toAvailableOptions(await db.prisma.template.findUniqueOrThrow({ where: { id: templateId }, select: AVAILABLE_OPTIONS_SELECT }));
}

describe("a template's available_options read by SQL and by Prisma", () => {
  it.each(Object.keys(templates) as (keyof typeof templates)[])("are the same for the %s template", async (name) => {
    const [sql, prisma] = await Promise.all([readBySql(templates[name]), readByPrisma(templates[name])]);
    expect(sql).toEqual(prisma);
    // Key order too: the same JSON text.
    expect(JSON.stringify(sql)).toBe(JSON.stringify(prisma));
  });

  it("are in the template's order, ties broken by name", async () => {
    const reordered = await readBySql(templates.reordered);
    expect(reordered.delivery_channels.map((o) => o.name)).toEqual(["sms", "same_device", "email", "email_and_sms"]);
    expect(reordered.delivery_channels.map((o) => o.preferred)).toEqual([false, true, false, false]);
    expect(reordered.delivery_channels[3]!.required_participant_attributes).toEqual(["phone_number", "email"]);
    expect(reordered.sign_methods.map((o) => o.name)).toEqual(["swedish_bankid", "standard_esign", "handwritten_signature"]);
    expect(reordered.two_step_authentication_methods.map((o) => o.name)).toEqual(["sms", "none", "email"]);
    const tied = await readBySql(templates.tied);
    // Enum order (the names' type in PostgreSQL), as both ways sort.
    expect(tied.delivery_channels.map((o) => o.name)).toEqual(["email", "sms", "none"]);
    expect(tied.sign_methods.map((o) => o.name)).toEqual(["standard_esign", "sms"]);
    expect(tied.two_step_authentication_methods.map((o) => o.name)).toEqual(["none", "sms"]);
    expect(await readBySql(templates.empty)).toEqual({ delivery_channels: [], sign_methods: [], two_step_authentication_methods: [] });
  });
});
