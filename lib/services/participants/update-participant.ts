import { type Actor, senderNameOf } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { PARTICIPANT_COLUMNS, type TParticipantRow } from "@/lib/services/participants/participant-row";
import type { PrismaClient, Tx } from "@/lib/db";
import { queryOne, reviveDates } from "@/lib/db/query";
import { inScope, jsonColumns, type Sql, type TPreload } from "@/lib/db/sql";
import { EDITABLE_CONTRACT_STATES, type TContractState } from "@/lib/domain/enums";
import { assertCanWrite, visibleWorkspaceIds } from "@/lib/domain/access";
import { participantProblems } from "@/lib/domain/options";
import { Prisma, type Participant } from "@/lib/generated/prisma/client";
import type { TAvailableOptions, TUpdateParticipantRequest } from "@/lib/schemas";
import { answerPathOf, auditValuesOf, frozenFieldsOf, sqlTypesOf, writableFieldsOf } from "@/lib/schemas/field-table";
import { PARTICIPANT_FIELDS } from "@/lib/schemas/participant";
import { contractNotFound, participantNotFound, partyNotFound } from "@/lib/services/not-found";
import { auditEventInsertSql } from "@/lib/services/audit/audit-event-insert-sql";
import { availableOptionsFields } from "@/lib/services/templates/available-options-fields";

import { mailQueued } from "@/lib/services/mail/mail-wakeup";
import { inviteParticipant } from "@/lib/services/signing/invite-participant";
import { newSigningLinkData } from "@/lib/services/signing/new-signing-link";

import { participantProblemsError, type TRuleProblem } from "./build-participant-problems-error";
import { prefixProblems } from "@/lib/services/participants/prefix-problems";
import { now as clockNow } from "@/lib/clock";

/** What an update reads: the contract (if visible), its party, the party's participant and the template's options. */
interface TTargetsRow {
  contract: { id: number; state: TContractState; workspaceId: number; templateId: number };
  party: { id: number; type: "company" | "individual"; myParty: boolean } | null;
  participant: TParticipantRow | null;
  /** In the rules' shape as the SQL writes it (available-options-fields.ts): used as it is read. */
  options: TAvailableOptions;
}

type TTargetIds = { contractId: number; partyId: number; participantId: number };

const PARTICIPANT_X_JSON = Prisma.raw(jsonColumns("x", PARTICIPANT_COLUMNS));
const TEMPLATE_OPTIONS_JSON = Prisma.raw(jsonColumns("c", {}, availableOptionsFields("c.template_id")));
const IN_SCOPE_C = inScope("c");

/**
 * The targets as one JSON value (null when the contract is not there or `scope` hides it). By
 * default `scope` is the request's credentials: the route's preload, read in the authentication's
 * statement (PUT …/participants/{id}).
 */
export function updateTargetsPreload(ids: TTargetIds, scope: Sql = IN_SCOPE_C): TPreload {
  return Prisma.sql`(SELECT json_build_object(
      'contract', json_build_object('id', c.id, 'state', c.state, 'workspaceId', c.workspace_id, 'templateId', c.template_id),
      'party', (SELECT json_build_object('id', p.id, 'type', p.type, 'myParty', p.my_party) FROM parties p WHERE p.id = ${ids.partyId}::int AND p.contract_id = c.id),
      'participant', (SELECT ${PARTICIPANT_X_JSON} FROM participants x JOIN parties p ON p.id = x.party_id
                       WHERE x.id = ${ids.participantId}::int AND x.party_id = ${ids.partyId}::int AND p.contract_id = c.id),
      'options', ${TEMPLATE_OPTIONS_JSON})
    FROM contracts c WHERE c.id = ${ids.contractId}::int AND ${scope})`;
}

export interface UpdateParticipantOptions {
  /** Writes run in one transaction of their own, so the client, not a transaction. */
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  partyId: number;
  participantId: number;
  /**
   * The versions of the participant the caller's change was made against (checked first, before
   * the role, the state and the rules); undefined when the caller named none.
   */
  expectedVersions?: readonly number[];
  /** Already parsed by ZUpdateParticipantRequestSchema. */
  changes: TUpdateParticipantRequest;
  requestId?: string;
  /** The targets read with the caller's credentials (`updateTargetsPreload`), when the caller read them. */
  preloaded?: unknown;
  /** The origin the signing link of a new invitation is written under (an e-mail change on a pending contract). */
  linkOrigin?: string;
  /**
   * What the caller reads of the written participant in the write's own statement (its answer):
   * an SQL expression over the row named by the alias it is given. Its value comes back as
   * `readBack`; null where no such statement ran (nothing changed, or the locked path).
   */
  readBack?: (writtenRow: string) => Sql;
}

/** The participant after the update, and what `readBack` read in the same statement. */
export interface TParticipantUpdate {
  participant: TParticipantRow;
  readBack: string | null;
}


/** The participant changed since the version the caller named (`expectedVersions`). */
export class StaleParticipantError extends DomainError {
  constructor(readonly current: TParticipantRow) {
    super("stale_if_match", "The participant changed since the version named in If-Match; fetch it again.");
  }
}

/** The writable fields (lib/schemas/participant.ts `write`) and where a request gives each. */
const WRITABLE = writableFieldsOf(PARTICIPANT_FIELDS).map((field) => ({ field, path: answerPathOf(field, PARTICIPANT_FIELDS[field]) }));

type TWritable = (typeof WRITABLE)[number]["field"];
type TParticipantChanges = Partial<Pick<Participant, TWritable>>;

/**
 * docs/api.md "Updating a participant". Checks run in a fixed order, so a client learns one thing at a time and nothing it may
 * not know: contract visible (404) → participant of that party of that contract (404) → version
 * current (412) → role may write (403) → contract editable (409) → the participant rules (400).
 *
 * The targets are read once (with the caller's credentials when `preloaded`), the rules run on them
 * (`planUpdate`, the only copy), and one statement writes the participant, its party and the audit
 * event, guarded by the version the rules saw. When another change got there first, the update runs
 * again in a transaction that first locks the contract's row (as signing does) and the
 * participant's, so concurrent changes queue and none is lost.
 */
export async function updateParticipant(options: UpdateParticipantOptions): Promise<TParticipantUpdate> {
  const { db, actor, contractId, partyId, participantId } = options;
  const ids = { contractId, partyId, participantId };
  const preloaded = options.preloaded !== undefined ? (options.preloaded as TTargetsRow | null) : await readTargets(db, actor, ids);
  const targets = foundTargets(preloaded, ids);
  const plan = planUpdate(options, targets);
  if (plan.write === null) return { participant: targets.current, readBack: null };
  if (!plan.relink) {
    const readBack = options.readBack ? Prisma.sql`, ${options.readBack(WRITTEN_ROW)} AS read_back` : Prisma.empty;
    const written = await queryOne<{ participant: TParticipantRow; read_back?: string }>(db, Prisma.sql`${plan.write}${readBack} FROM ${UPD}`);
    if (written) return { participant: reviveDates(written.participant), readBack: written.read_back ?? null };
  }
  const updated = await db.$transaction((tx) => updateLocked(tx, options, ids));
  // An invitation may have been queued (`relink`): wake the sender now that it is committed.
  mailQueued();
  return { participant: updated, readBack: null };
}

/** The update under the contract's and the participant's row locks: read, check and write see the same rows. */
async function updateLocked(tx: Tx, options: UpdateParticipantOptions, ids: TTargetIds): Promise<TParticipantRow> {
  // The contract first, then the participant: the order signing and the one-statement write take them in.
  await tx.$queryRaw`SELECT id FROM contracts WHERE id = ${ids.contractId} FOR UPDATE`;
  await tx.$queryRaw`SELECT id FROM participants WHERE id = ${ids.participantId} AND party_id = ${ids.partyId} FOR UPDATE`;
  const [row] = await tx.$queryRaw<{ targets: TTargetsRow | null }[]>(targetsStatement(options.actor, ids));
  const targets = foundTargets(row?.targets ?? null, ids);
  const plan = planUpdate(options, targets);
  if (plan.write === null) return targets.current;
  let [written] = await tx.$queryRaw<{ participant: TParticipantRow }[]>(Prisma.sql`${plan.write} FROM ${UPD}`);
  if (plan.relink && (await relink(tx, options, targets.current))) {
    // The invitation changed the row again (link, invited_at, delivery_status, version): the row as it is now.
    [written] = await tx.$queryRaw<{ participant: TParticipantRow }[]>(
      Prisma.sql`SELECT ${PARTICIPANT_JSON.upd} AS participant FROM participants ${UPD} WHERE ${UPD}.id = ${ids.participantId}::int`,
    );
  }
  return reviveDates(written!.participant);
}

/**
 * An undecided participant's e-mail changed on a pending contract: the link sent to the old address
 * dies (a new one replaces it, and the second factor starts afresh), mail not yet sent to the old
 * address is withdrawn (its link would be rendered from the new nonce), and the invitation goes to
 * the new address as any invitation does (inviteParticipant: the reminder schedule starts again);
 * in the update's transaction, so the mail exists exactly when the change does. False when the
 * participant has no link yet (a later stage not yet invited): nothing to send.
 */
async function relink(tx: Tx, options: UpdateParticipantOptions, before: TParticipantRow): Promise<boolean> {
  const participant = await tx.participant.findUniqueOrThrow({ where: { id: before.id }, include: { party: { select: { contract: true } } } });
  const contract = participant.party.contract;
  if (participant.signingNonce === null) return false;
  if (!options.linkOrigin) throw new Error("an e-mail change on a pending contract needs the origin of the new link");
  await tx.participant.update({ where: { id: participant.id }, data: await newSigningLinkData(tx, participant) });
  await tx.emailMessage.updateMany({
    where: { participantId: participant.id, status: { in: ["queued", "kept"] }, toAddress: { not: participant.email } },
    data: { status: "failed", lastError: "withdrawn: the participant's e-mail address changed" },
  });
  const senderName = senderNameOf(options.actor);
  await inviteParticipant(tx, participant, { contract, senderName, linkOrigin: options.linkOrigin, now: clockNow() });
  return true;
}

/** The statement reading the targets in `actor`'s workspaces (null: none visible, or not there). */
function targetsStatement(actor: Actor, ids: TTargetIds): Sql {
  const workspaces = visibleWorkspaceIds(actor);
  const scope = workspaces === null ? Prisma.raw("true") : Prisma.sql`c.workspace_id = ANY(${workspaces}::int[])`;
  return Prisma.sql`SELECT ${updateTargetsPreload(ids, scope)} AS targets`;
}

/** The targets as a preload reads them, in a statement of their own. */
async function readTargets(db: PrismaClient, actor: Actor, ids: TTargetIds): Promise<TTargetsRow | null> {
  return (await queryOne<{ targets: TTargetsRow | null }>(db, targetsStatement(actor, ids)))?.targets ?? null;
}

/** The name under which an update's statements show the participant they wrote. */
const WRITTEN_ROW = "upd";

// The parts of the statements that never change, written once.
const UPD = Prisma.raw(WRITTEN_ROW);
const PARTICIPANT_JSON = { upd: Prisma.raw(jsonColumns(WRITTEN_ROW, PARTICIPANT_COLUMNS)) };

/** The targets, or the 404 for the first one missing (contract, then party and participant). */
function foundTargets(row: TTargetsRow | null, ids: TTargetIds) {
  if (!row) throw contractNotFound(ids.contractId);
  if (!row.party) throw partyNotFound(ids.contractId, ids.partyId);
  if (!row.participant) throw participantNotFound(ids.partyId, ids.participantId);
  return { contract: row.contract, party: row.party, current: reviveDates(row.participant), available: row.options };
}

/**
 * The checks, in the documented order, on what was read; then the statement that writes the change
 * (null when nothing changes: `{}`, or only values the participant already has, so `updated_time`,
 * the ETag and the audit log stay as they are).
 */
function planUpdate(options: UpdateParticipantOptions, { contract, party, current, available }: ReturnType<typeof foundTargets>) {
  const { actor, expectedVersions, changes, requestId } = options;
  if (expectedVersions !== undefined && !expectedVersions.includes(current.version)) throw new StaleParticipantError(current);
  assertContractEditable(actor, contract);
  // `{}` updates nothing (docs/api.md "Updating a participant"), whatever the rules would say about the stored state.
  if (Object.keys(changes).length === 0) return { write: null, relink: false };

  const { data, before, after } = changedFields(current, changes);
  assertAgreementKept(contract, current, data);
  const next = { ...current, ...data };
  const problems: TRuleProblem[] = [];
  if (party.myParty && "email" in data) {
    problems.push({
      path: "email",
      message: "is the e-mail of a user of the service and cannot be changed here",
      code: "owner_participant_email_immutable",
    });
  }
  const resolved = {
    delivery_channel: next.deliveryChannel,
    sign_method: next.signMethod,
    two_step_authentication_method: next.twoStepMethod,
    email: next.email,
    phone_number: next.phoneNumber,
    signatory: next.signatory,
    _permissions: { "contract:update": next.canUpdateContract },
  };
  // An option is checked when it is being chosen now. One chosen earlier stays valid when the
  // template changed since, or when the service set it (the organizer's e-mail delivery), so a
  // client can still fix the participant's other attributes.
  const relevant = participantProblems(available, resolved).filter(
    (problem) => problem.code !== "option_not_offered" || problem.path.some((key) => key in after),
  );
  // The one 400 listing every problem, built only when there is one.
  if (problems.length > 0 || relevant.length > 0) {
    const error = participantProblemsError([...problems, ...prefixProblems("", relevant)]);
    if (error) throw error;
  }
  if (Object.keys(data).length === 0) return { write: null, relink: false };

  // One statement: the participant (only the version checked above), its party's and its contract's
  // `updated_time` (an individual party is its participant, docs/api.md: its name and number follow)
  // and the audit event, under the contract's row lock taken first (`participantWriteCtes`). No row
  // back means the participant changed since it was read.
  const now = Prisma.sql`${clockNow().toISOString()}::timestamptz`;
  const values = (Object.entries(data) as [TWritable, unknown][]).map(
    ([field, value]) => [field, Prisma.sql`${value}::${Prisma.raw(PARTICIPANT_TYPES[field])}`] as const,
  );
  const audit = auditEventInsertSql(WRITTEN_ROW, {
    actor,
    action: "participant.update",
    entityType: "participant",
    entityId: current.id,
    contractId: contract.id,
    workspaceId: contract.workspaceId,
    requestId,
    before,
    after,
  });
  const where = Prisma.sql`participants.id = ${current.id}::int AND participants.version = ${current.version}::int`;
  // Its FROM is added by the caller, after what it selects with the row (`readBack`).
  const write = Prisma.sql`WITH ${participantWriteCtes({ contractId: contract.id, values, where, now, audit })}
    SELECT ${PARTICIPANT_JSON.upd} AS participant`;
  // A new link for the new address: only where a link was sent (pending) to someone who may still use it.
  const relink = contract.state === "pending" && "email" in data && current.signState === "undecided";
  return { write, relink };
}

/**
 * May the actor change this contract's participants now? 403 `role_cannot_write` for a viewer, then
 * 409 `contract_not_editable` once the contract is no longer draft or pending: a viewer learns
 * nothing from the state check.
 */
function assertContractEditable(actor: Actor, contract: { id: number; workspaceId: number; state: TContractState }): void {
  assertCanWrite(actor, contract.workspaceId);
  if (!EDITABLE_CONTRACT_STATES.includes(contract.state)) {
    throw new DomainError(
      "contract_not_editable",
      `Contract ${contract.id} is ${contract.state}; its parties and participants can only change while it is ${EDITABLE_CONTRACT_STATES.join(" or ")}.`,
    );
  }
}

/**
 * docs/api.md "After publishing": what the signatories were invited to stays as it was. Who must
 * sign is frozen (so no counterparty can be left without a signatory, nor the contract without
 * anyone able to complete it), and a participant who has decided keeps the identity they decided
 * under. Both are refusals (409), never a silent reset of signatures.
 */
function assertAgreementKept(contract: { id: number; state: TContractState }, current: TParticipantRow, data: TParticipantChanges): void {
  const fixed = FROZEN_ON_PUBLISH.filter((field) => field in data);
  if (contract.state !== "draft" && fixed.length > 0) {
    throw new DomainError(
      "signatories_frozen",
      `Contract ${contract.id} is ${contract.state}: ${fixed.map(answerNameOf).join(", ")} ${fixed.length > 1 ? "were" : "was"} fixed when it was published.`,
    );
  }
  const identity = FROZEN_ON_DECISION.filter((field) => field in data);
  if (current.signState !== "undecided" && identity.length > 0) {
    throw new DomainError("participant_decided", `Participant ${current.id} has ${current.signState}; their ${identity.map(answerNameOf).join(", ")} cannot change.`);
  }
}

const FROZEN_ON_PUBLISH = frozenFieldsOf(PARTICIPANT_FIELDS, "published");
const FROZEN_ON_DECISION = frozenFieldsOf(PARTICIPANT_FIELDS, "decided");
const answerNameOf = (field: keyof typeof PARTICIPANT_FIELDS) => answerPathOf(field, PARTICIPANT_FIELDS[field]).join(".");

/**
 * The writes of an update, as CTEs of one statement: `locked`, the contract's row lock, taken before
 * the participant's (the order signing and `updateLocked` take them in, so none waits on the
 * other in a circle); `upd` (`WRITTEN_ROW`), the participant (the row `where` picks; its version
 * bumped); `touched`, its party's `updated_at` (an individual party is its participant, docs/api.md:
 * its name and number follow); `contract_touched`, the contract's `updated_at` (a change of what the
 * contract holds); and `audited`, the audit event (`audit`, an INSERT reading `upd`). `values` are
 * the columns set and their values. No row in `upd` means nothing was written.
 */
function participantWriteCtes(w: { contractId: number; values: readonly (readonly [TWritable, Sql])[]; where: Sql; now: Sql; audit: Sql }): Sql {
  const column = (field: TWritable) => Prisma.raw(PARTICIPANT_COLUMNS[field]);
  const mirrored = w.values
    .filter(([field]) => field === "name" || field === "identificationNumber")
    .map(([field]) => Prisma.sql`${column(field)} = CASE WHEN parties.type = 'individual' THEN ${UPD}.${column(field)} ELSE parties.${column(field)} END`);
  return Prisma.sql`locked AS (
      SELECT id FROM contracts WHERE id = ${w.contractId}::int FOR UPDATE
    ), ${UPD} AS (
      UPDATE participants SET ${Prisma.join(w.values.map(([field, value]) => Prisma.sql`${column(field)} = ${value}`), ", ")},
             version = participants.version + 1, updated_at = ${w.now}
       WHERE ${w.where} AND EXISTS (SELECT 1 FROM locked)
      RETURNING participants.*
    ), touched AS (
      UPDATE parties SET ${Prisma.join([...mirrored, Prisma.sql`updated_at = ${w.now}`], ", ")} FROM ${UPD} WHERE parties.id = ${UPD}.party_id
    ), contract_touched AS (
      UPDATE contracts SET updated_at = ${w.now} FROM locked WHERE contracts.id = locked.id AND EXISTS (SELECT 1 FROM ${UPD})
    ), audited AS (
      ${w.audit}
    )`;
}

/** The SQL type of each participant column (enums by their PostgreSQL names). */
const PARTICIPANT_TYPES = sqlTypesOf(PARTICIPANT_FIELDS);

/**
 * The columns to write (only those whose value changes) and the changed attributes before and after,
 * by their API names, for the audit event. The same e-mail in another case is no change: e-mail
 * addresses are compared case-insensitively everywhere else too.
 */
function changedFields(current: TParticipantRow, changes: TUpdateParticipantRequest) {
  const data: Record<string, unknown> = {};
  const changed: TWritable[] = [];
  for (const { field, path } of WRITABLE) {
    const value = valueAt(changes, path);
    if (value === undefined || value === current[field]) continue;
    if (field === "email" && typeof value === "string" && value.toLowerCase() === current.email.toLowerCase()) continue;
    data[field] = value;
    changed.push(field);
  }
  // null: a sign_order cleared or set for the first time.
  const before = auditValuesOf(PARTICIPANT_FIELDS, current, changed) as Record<string, Prisma.InputJsonValue | null>;
  const after = auditValuesOf(PARTICIPANT_FIELDS, data, changed) as Record<string, Prisma.InputJsonValue | null>;
  return { data: data as TParticipantChanges, before, after };
}

/** The value a request gives at `path` (a section's field is nested). */
function valueAt(changes: TUpdateParticipantRequest, path: readonly string[]): unknown {
  return path.reduce<unknown>((object, key) => (object as Record<string, unknown> | undefined)?.[key], changes);
}
