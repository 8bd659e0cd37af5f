import type { Actor } from "@/lib/domain/actor";
import { DomainError, summarize, type TParameterProblems } from "@/lib/domain/errors";
import { assertCanWrite, canReadWorkspace, visibleWorkspaceIds } from "@/lib/domain/access";
import type { TContractDetailRow } from "@/lib/services/contracts/contract-row";
import type { PrismaClient } from "@/lib/db";
import { queryOne } from "@/lib/db/query";
import { jsonColumns } from "@/lib/db/sql";
import { defaultParticipantOptions } from "@/lib/domain/options";
import { Prisma } from "@/lib/generated/prisma/client";
import type { TAvailableOptions, TCreateContractRequest, TDataFieldValueRequest } from "@/lib/schemas";
import { participantProblemsError, type TRuleProblem } from "@/lib/services/participants/build-participant-problems-error";
import { counterpartyData } from "@/lib/services/parties/counterparty-data";
import { type TParticipantData } from "@/lib/services/parties/participant-data";
import { availableOptionsFields } from "@/lib/services/templates/available-options-fields";
import type { TemplateDataField } from "@/lib/generated/prisma/client";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { signOrderProblems } from "@/lib/domain/signing-order";
import { now as clockNow } from "@/lib/clock";
import { insertContract, type TNewContract } from "./insert-contract";
import { CONTRACT_FIELDS } from "@/lib/schemas/contract";
import { auditValuesOf, sectionColumnMapOf, sectionColumnsOf, sectionValuesOf } from "@/lib/schemas/field-table";
import { TEMPLATE_FIELDS } from "@/lib/schemas/template";
import { NO_TERM, termProblems, type TTerm } from "@/lib/domain/lifecycle";

export interface CreateContractOptions {
  /** Writes run in one transaction of their own, so the client, not a transaction. */
  db: PrismaClient;
  actor: Actor;
  /** Already parsed by ZCreateContractRequestSchema (shapes, formats and enum values are valid). */
  request: TCreateContractRequest;
  requestId?: string;
  /**
   * Steps that must be part of the same transaction: `first` runs before anything is written
   * (e.g. claiming an idempotency key, which may end the transaction), `last` after the contract
   * exists (e.g. storing the answer a retry will get).
   */
  inTransaction?: {
    first?(tx: Prisma.TransactionClient): Promise<void>;
    last?(tx: Prisma.TransactionClient, contract: TContractDetailRow): Promise<void>;
  };
}

/**
 * docs/api.md "Creating a contract". Checks, in order: the workspace is visible (404), the
 * template is visible (404) and usable in the workspace (400), the caller may create there (403), then
 * every counterparty participant against the template's options, all problems in one 400. Then one
 * transaction writes the contract (draft), the owner-side party with the caller as organizer (the
 * anonymous admin is nobody, so its party has no participant), the counterparties, copies of the
 * template's data fields and the audit event: either all of it exists afterwards or none of it.
 */
export async function createContract({ db, actor, request, requestId, inTransaction }: CreateContractOptions): Promise<TContractDetailRow> {
  const { workspace, template, user } = await loadCreationContext(db, actor, request);

  if (!workspace || !canReadWorkspace(actor, workspace.id)) {
    throw new DomainError("resource_not_found", `Workspace ${request.workspace_id} does not exist.`, {
      parameterProblems: { workspace_id: ["no such workspace"] },
    });
  }
  if (!template) {
    throw new DomainError("resource_not_found", `Template ${request.template_id} does not exist.`, {
      parameterProblems: { template_id: ["no such template"] },
    });
  }
  if (!template.workspaces.some((w) => w.workspaceId === workspace.id)) {
    throw new DomainError("template_not_usable", `Template ${template.id} cannot be used in workspace ${workspace.id}.`, {
      parameterProblems: { template_id: [`cannot be used in workspace ${workspace.id}`] },
    });
  }
  assertCanWrite(actor, workspace.id);

  const available = template.availableOptions;
  const defaults = defaultParticipantOptions(available);
  const problems: TRuleProblem[] = [];
  const counterparties = (request.parties ?? []).map((party, index) => counterpartyData(party, `parties.${index}`, available, defaults, problems));
  const values = dataFieldValues(request.data_fields ?? [], template.dataFields);
  const orders = requestOrderProblems(request);
  const term = termOfCreation(request, template);
  const termErrors = termParameterProblems(term);
  const error = participantProblemsError(problems);
  if (error || values.problems || orders || termErrors) {
    // One 400 naming everything; a participant rule's code wins over the plain validation code.
    const parameterProblems = { ...error?.parameterProblems, ...values.problems, ...orders, ...termErrors };
    throw new DomainError(error?.key ?? "validation_failed", summarize(parameterProblems), { parameterProblems });
  }

  const now = clockNow();
  // The organizer is the caller (a user of the service), not a signer: the service sets its options.
  const organizer: TParticipantData | null = user && {
    userId: user.id,
    name: user.name,
    email: user.email,
    title: user.title,
    phoneNumber: user.phoneNumber,
    identificationNumber: "",
    deliveryChannel: "email",
    signMethod: defaults.sign_method,
    twoStepMethod: "none",
    signatory: false,
    signOrder: null,
    canUpdateContract: true,
    organizer: true,
  };

  return db.$transaction(async (tx) => {
    await inTransaction?.first?.(tx);
    const contract = await insertContract(tx, {
      name: request.name ?? template.name,
      workspaceId: workspace.id,
      templateId: template.id,
      createdById: user?.id ?? null,
      signingOrder: request.signing_order ?? "parallel",
      delegationAllowed: request.delegation_allowed ?? true,
      ...(sectionColumnsOf(CONTRACT_FIELDS, "lifecycle_settings", term) as Pick<TNewContract, "durationType" | "startDate" | "endDate" | "initialDuration" | "renewalPeriod" | "noticePeriod">),
      now,
      parties: [
        // The owner's side first, so it has the lowest id and is answered first.
        { type: "company", name: workspace.companyName, countryCode: workspace.countryCode, identificationNumber: "", myParty: true, participants: organizer ? [organizer] : [] },
        ...counterparties.map((party) => ({ ...party, myParty: false })),
      ],
      dataFields: template.dataFields.map((field) => ({
        name: field.name,
        description: field.description,
        placeholder: field.placeholder,
        customId: field.customId,
        value: values.byCustomId.get(field.customId) ?? field.defaultValue,
      })),
    });
    await writeAuditEvent({
      db: tx,
      actor,
      action: "contract.create",
      entityType: "contract",
      entityId: contract.id,
      contractId: contract.id,
      workspaceId: contract.workspaceId,
      requestId,
      after: {
        ...(auditValuesOf(CONTRACT_FIELDS, contract) as Prisma.InputJsonObject),
        parties: contract.parties.map((party) => ({
          id: party.id,
          type: party.type,
          my_party: party.myParty,
          participant_ids: party.participants.map((p) => p.id),
        })),
        data_field_count: template.dataFields.length,
        ...(request.data_fields?.length ? { data_fields: request.data_fields.map(({ custom_id, value }) => ({ custom_id, value })) } : {}),
      },
    });
    await inTransaction?.last?.(tx, contract);
    return contract;
  });
}

type TCreationTemplate = {
  id: number;
  name: string;
  workspaces: { workspaceId: number }[];
  dataFields: Pick<TemplateDataField, "name" | "description" | "placeholder" | "customId" | "defaultValue">[];
  /** In the rules' shape as the SQL writes it (available-options-fields.ts). */
  availableOptions: TAvailableOptions;
  /** Its duration defaults, by column (TEMPLATE_FIELDS' lifecycle_settings). */
  term: Record<string, unknown>;
};

/**
 * What creation reads before it writes, in one statement: the workspace, the template if the actor
 * may see it (with its workspaces, data fields in order and options), and the calling user.
 */
async function loadCreationContext(db: PrismaClient, actor: Actor, request: TCreateContractRequest) {
  const visible = visibleWorkspaceIds(actor);
  const row = await queryOne<{
    workspace: { id: number; companyName: string; countryCode: string } | null;
    template: TCreationTemplate | null;
    user: { id: number; name: string; email: string; title: string; phoneNumber: string } | null;
  }>(
    db,
    Prisma.sql`SELECT
       (SELECT json_build_object('id', w.id, 'companyName', w.company_name, 'countryCode', w.country_code) FROM workspaces w WHERE w.id = ${request.workspace_id}::int) AS workspace,
       (SELECT ${CREATION_TEMPLATE_JSON}
          FROM templates t
         WHERE t.id = ${request.template_id}::int
           ${visible === null ? Prisma.empty : Prisma.sql`AND EXISTS (SELECT 1 FROM template_workspaces tw WHERE tw.template_id = t.id AND tw.workspace_id = ANY(${visible}::int[]))`}) AS template,
       (SELECT json_build_object('id', u.id, 'name', u.name, 'email', u.email, 'title', u.title, 'phoneNumber', u.phone_number) FROM users u WHERE u.id = ${actor.kind === "user" ? actor.userId : null}::int) AS "user"`,
  );
  return row!;
}

/** The template `t` as creation reads it (TCreationTemplate). */
const CREATION_TEMPLATE_JSON = Prisma.raw(
  jsonColumns("t", { id: "id", name: "name" }, {
    workspaces: `COALESCE((SELECT json_agg(json_build_object('workspaceId', tw.workspace_id)) FROM template_workspaces tw WHERE tw.template_id = t.id), '[]')`,
    dataFields: `COALESCE((SELECT json_agg(json_build_object('name', f.name, 'description', f.description, 'placeholder', f.placeholder, 'customId', f.custom_id, 'defaultValue', f.default_value) ORDER BY f.position, f.id) FROM template_data_fields f WHERE f.template_id = t.id), '[]')`,
    availableOptions: jsonColumns("t", {}, availableOptionsFields("t.id")),
    term: jsonColumns("t", sectionColumnMapOf(TEMPLATE_FIELDS, "lifecycle_settings")),
  }),
);

/** The contract's term: the request's settings over the template's defaults for the same duration (docs/lifecycle.md). */
function termOfCreation(request: TCreateContractRequest, template: TCreationTemplate): TTerm {
  const defaults = sectionValuesOf(TEMPLATE_FIELDS, "lifecycle_settings", template.term) as Partial<TTerm>;
  const given = Object.fromEntries(Object.entries(request.lifecycle_settings ?? {}).filter(([, value]) => value !== undefined)) as Partial<TTerm>;
  // Another duration than the template's takes none of its other settings: they were chosen for its duration.
  const base = given.duration === undefined || given.duration === defaults.duration ? defaults : {};
  return { ...NO_TERM, ...base, ...given };
}

/** The term's rule problems under `lifecycle_settings.`, or undefined. */
function termParameterProblems(term: TTerm): TParameterProblems | undefined {
  const problems = termProblems(term);
  if (problems.length === 0) return undefined;
  return Object.fromEntries(problems.map((p) => [`lifecycle_settings.${p.path}`, [p.message]]));
}

/**
 * The values sent in `data_fields` by custom id, each checked against the template's data fields
 * (duplicates were refused by the schema). A custom id several template fields share sets them all.
 */
function dataFieldValues(entries: readonly TDataFieldValueRequest[], templateFields: readonly { customId: string }[]) {
  const known = new Set(templateFields.map((field) => field.customId).filter((id) => id !== ""));
  const byCustomId = new Map<string, string>();
  let problems: TParameterProblems | undefined;
  entries.forEach(({ custom_id, value }, index) => {
    if (known.has(custom_id)) byCustomId.set(custom_id, value);
    else (problems ??= {})[`data_fields.${index}.custom_id`] = ["is not the custom id of one of the template's data fields"];
  });
  return { byCustomId, problems };
}

/**
 * An ordered contract's counterparty signatories as sent: each needs a `sign_order`, numbered 1, 2, …
 * without gaps (the owner side's signatories are numbered once they are added, before publishing).
 */
function requestOrderProblems(request: TCreateContractRequest): TParameterProblems | undefined {
  const sent = (request.parties ?? []).flatMap((party, p) =>
    party.type === "company"
      ? party.participants.map((participant, i) => ({ path: `parties.${p}.participants.${i}.sign_order`, participant }))
      : [{ path: `parties.${p}.participant.sign_order`, participant: party.participant }],
  );
  const people = sent.map(({ participant }) => ({ signatory: participant.signatory ?? false, signOrder: participant.sign_order ?? null }));
  const found = signOrderProblems(request.signing_order ?? "parallel", people);
  if (found.length === 0) return undefined;
  return Object.fromEntries(found.map((problem) => [sent[problem.index]!.path, [problem.message]]));
}
