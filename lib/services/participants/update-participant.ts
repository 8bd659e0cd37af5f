import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { participantEtag, participantEtagSql, PARTICIPANT_COLUMNS, type TParticipantRow } from "@/lib/services/participants/participant-row";
import { participantJsonSql } from "@/lib/services/participants/participant-sql";
import type { PrismaClient } from "@/lib/db";
import { jsonColumns, queryOne, reviveDates, SqlParams, textByPlaceholders, type TPreload, type TWriteAhead } from "@/lib/db/sql";
import { EDITABLE_CONTRACT_STATES, PARTICIPANT_ATTRIBUTES, type TContractState, type TParticipantAttribute } from "@/lib/domain/enums";
import { visibleWorkspaceIds } from "@/lib/domain/permissions";
import { contractNotFound, IN_SCOPE } from "@/lib/services/contracts/contract-sql";
import { participantProblems } from "@/lib/domain/options";
import type { Participant, Prisma } from "@/lib/generated/prisma/client";
import type { TUpdateParticipantRequest } from "@/lib/schemas";
import { assertContractEditable } from "@/lib/services/contracts/find-visible-contract";
import { auditEventInsert, auditEventInsertSql } from "@/lib/services/audit/write-audit-event";
import { availableOptionsFields, toAvailableOptions, type TAvailableOptionsRow } from "@/lib/services/templates/load-available-options";

import { participantProblemsError, prefixProblems, type TRuleProblem } from "./build-participant-problems-error";

export interface UpdateParticipantOptions {
  /** Writes run in one transaction of their own, so the client, not a transaction. */
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  partyId: number;
  participantId: number;
  /** The raw `If-Match` header, or null when the client sent none. */
  ifMatch: string | null;
  /** Already parsed by ZUpdateParticipantRequestSchema. */
  changes: TUpdateParticipantRequest;
  requestId?: string;
  /** The targets read with the caller's credentials (`updateTargetsPreload`), when the route read them. */
  preloaded?: unknown;
  /**
   * Nothing preloaded: read the targets first in a statement of their own (no lock), as a preload
   * would have, and go on as with one. The route asks it after a write-ahead that wrote nothing
   * (a statement that writes ahead preloads nothing, lib/api/auth.ts): a refusal or an unchanged
   * value is then answered after one more round trip, not a locked transaction.
   */
  readFirst?: boolean;
}

/** Each writable attribute (docs/api.md "Updating a participant") and the column it is stored in. */
const COLUMNS = {
  name: "name",
  title: "title",
  email: "email",
  phone_number: "phoneNumber",
  identification_number: "identificationNumber",
  delivery_channel: "deliveryChannel",
  sign_method: "signMethod",
  two_step_authentication_method: "twoStepMethod",
  signatory: "signatory",
} as const satisfies Record<Exclude<keyof TUpdateParticipantRequest, "_permissions">, keyof Participant>;

type TAttribute = keyof typeof COLUMNS;
type TParticipantChanges = Partial<Pick<Participant, (typeof COLUMNS)[TAttribute] | "canUpdateContract">>;

/**
 * docs/api.md "Updating a participant". Checks run in a fixed order, so a client learns one thing at a time and nothing it may
 * not know: contract visible (404) → participant of that party of that contract (404) → `If-Match`
 * current (412) → role may write (403) → contract editable (409) → the participant rules (400).
 *
 * No change is lost and the rules are checked on what will really be stored: the change is written
 * by one statement (participant, party and audit event together) that applies only to the version
 * of the participant the checks were made on. Given `preloaded` (the rows read with the caller's
 * credentials, `updateTargetsPreload`), that is the whole update: one round trip to read, one to
 * write. When the participant changed in between, or nothing was preloaded, it runs again in a
 * transaction that first locks the participant's row, so concurrent updates queue behind each other.
 */
export async function updateParticipant(options: UpdateParticipantOptions): Promise<TParticipantRow> {
  const { db, actor, contractId, partyId, participantId } = options;
  const ids = { contractId, partyId, participantId };
  const preloaded = options.preloaded !== undefined ? options.preloaded : options.readFirst ? await readTargets(db, actor, ids) : undefined;
  if (preloaded !== undefined) {
    const targets = foundTargets(preloaded as TTargetsRow | null, ids);
    const plan = planUpdate(options, targets);
    if (plan.write === null) return targets.current;
    const written = await queryOne<{ participant: TParticipantRow }>(db, plan.write.text, plan.write.values);
    if (written) return reviveDates(written.participant);
  }
  return db.$transaction(async (tx) => {
    // Locked before it is read: the version read is the one the write applies to.
    await tx.$queryRawUnsafe(`SELECT id FROM participants WHERE id = $1 AND party_id = $2 FOR UPDATE`, participantId, partyId);
    const { text, values } = targetsStatement(actor, ids);
    const [row] = await tx.$queryRawUnsafe<{ targets: TTargetsRow | null }[]>(text, ...values);
    const targets = foundTargets(row?.targets ?? null, ids);
    const plan = planUpdate(options, targets);
    if (plan.write === null) return targets.current;
    const [written] = await tx.$queryRawUnsafe<{ participant: TParticipantRow }[]>(plan.write.text, ...plan.write.values);
    return reviveDates(written!.participant);
  });
}

/** The statement reading the targets in `actor`'s workspaces (null: none visible, or not there). */
function targetsStatement(actor: Actor, ids: TTargetIds): { text: string; values: unknown[] } {
  const q = new SqlParams();
  const workspaces = visibleWorkspaceIds(actor);
  const scope = workspaces === null ? "true" : `c.workspace_id = ANY(${q.p(workspaces, "int[]")})`;
  return { text: `SELECT ${updateTargetsSql(q, ids, scope)} AS targets`, values: q.values };
}

/** The targets as a preload reads them, in a statement of their own. */
async function readTargets(db: PrismaClient, actor: Actor, ids: TTargetIds): Promise<TTargetsRow | null> {
  const { text, values } = targetsStatement(actor, ids);
  return (await queryOne<{ targets: TTargetsRow | null }>(db, text, values))?.targets ?? null;
}

/** What an update reads: the contract (if visible), its party, the party's participant and the template's options. */
interface TTargetsRow {
  contract: { id: number; state: TContractState; workspaceId: number; templateId: number };
  party: { id: number; type: "company" | "individual"; myParty: boolean } | null;
  participant: TParticipantRow | null;
  options: TAvailableOptionsRow;
}

type TTargetIds = { contractId: number; partyId: number; participantId: number };

// The parts of the statements that never change, written once.
const PARTICIPANT_JSON = { x: jsonColumns("x", PARTICIPANT_COLUMNS), upd: jsonColumns("upd", PARTICIPANT_COLUMNS) };
const TEMPLATE_OPTIONS_JSON = jsonColumns("c", {}, availableOptionsFields("c.template_id"));

/** The targets as one JSON value (null when the contract is not there or `scope` hides it). */
function updateTargetsSql(q: SqlParams, ids: TTargetIds, scope: string): string {
  // Values first, in one order: the text depends on the placeholders and `scope` only, and is kept.
  return UPDATE_TARGETS_SQL(q.p(ids.partyId, "int"), q.p(ids.participantId, "int"), q.p(ids.contractId, "int"), scope);
}

const UPDATE_TARGETS_SQL = textByPlaceholders((partyId: string, participantId: string, contractId: string, scope: string) => `(SELECT json_build_object(
      'contract', json_build_object('id', c.id, 'state', c.state, 'workspaceId', c.workspace_id, 'templateId', c.template_id),
      'party', (SELECT json_build_object('id', p.id, 'type', p.type, 'myParty', p.my_party) FROM parties p WHERE p.id = ${partyId} AND p.contract_id = c.id),
      'participant', (SELECT ${PARTICIPANT_JSON.x} FROM participants x JOIN parties p ON p.id = x.party_id
                       WHERE x.id = ${participantId} AND x.party_id = ${partyId} AND p.contract_id = c.id),
      'options', ${TEMPLATE_OPTIONS_JSON})
    FROM contracts c WHERE c.id = ${contractId} AND ${scope})`);

/** PUT …/participants/{id}: the update's targets, read with the caller's credentials (`scope`). */
export function updateTargetsPreload(ids: TTargetIds): TPreload {
  return (q) => updateTargetsSql(q, ids, IN_SCOPE_C);
}

const IN_SCOPE_C = IN_SCOPE("c");

/** Each participant attribute the options can require, and the column it is stored in. */
const REQUIRED_COLUMNS = { email: "email", phone_number: "phoneNumber" } as const satisfies Record<TParticipantAttribute, keyof TParticipantChanges>;

/**
 * PUT …/participants/{id} written in the credentials' statement (docs/performance.md "The PUT in one
 * round trip"), when the route can tell from the request alone what to write: undefined when it
 * cannot. The statement writes exactly what `planUpdate` would (the participant, its party, the
 * audit event, with the actor the statement authenticated), but only when it can see that every
 * check passes; otherwise it writes nothing, and the update runs as usual on the targets it then
 * reads (`readFirst`: a statement that writes ahead preloads nothing). Its conditions may refuse
 * more than the checks, never less (the service tests run every case through it): every
 * attribute sent must change (so no `{}`), no e-mail (its comparison ignores case, and an
 * owner-side participant's cannot change), and a required attribute must hold a letter or a digit
 * (JavaScript's `trim` and PostgreSQL's blanks differ).
 * Contract in scope, party and participant of it, the role, the contract's state, the options
 * being chosen (offered by the template; one chosen earlier stays as it is), the attributes the
 * participant's delivery channel and two-step method require (those of offered options only, as
 * `participantProblems` reads them) and the version read are checked as `planUpdate` checks them.
 */
export function updateWriteAhead(ids: TTargetIds, changes: TUpdateParticipantRequest, requestId: string, linkBase: string): TWriteAhead | undefined {
  // Each attribute sent: its column, its value, and its entry of the audit event's before (from `x`, the row read).
  const sent: [keyof TParticipantChanges, unknown, string][] = [];
  const after: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes) as [keyof TUpdateParticipantRequest, unknown][]) {
    if (key === "_permissions") {
      const canUpdate = changes._permissions?.["contract:update"];
      if (canUpdate === undefined) return undefined;
      sent.push(["canUpdateContract", canUpdate, `'_permissions', jsonb_build_object('contract:update', x.can_update_contract)`]);
      after._permissions = { "contract:update": canUpdate };
    } else {
      if (key === "email" || !(key in COLUMNS) || value === undefined) return undefined;
      sent.push([COLUMNS[key], value, `'${key}', x.${PARTICIPANT_COLUMNS[COLUMNS[key]]}`]);
      after[key] = value;
    }
  }
  if (sent.length === 0) return undefined;
  // In one order whatever the body's: a combination of attributes is one statement, not one per
  // order they were sent in (the audit event's JSON does not keep an order either).
  sent.sort(([a], [b]) => SENT_ORDER.indexOf(a) - SENT_ORDER.indexOf(b));

  const shape = sent.map(([field]) => field).join(",");
  return (q, allowed) => {
    // Every parameter first, always in this order: the text depends only on their placeholders,
    // the attributes sent and `allowed`, so it is written once for each and kept (`aheadTexts`).
    const value = new Map(sent.map(([field, v]) => [field, q.p(v, PARTICIPANT_TYPES[field])]));
    const target = { contractId: q.p(ids.contractId, "int"), partyId: q.p(ids.partyId, "int"), participantId: q.p(ids.participantId, "int") };
    // As ISO text: pg writes a Date parameter out field by field in local time, at several times the cost.
    const now = q.p(new Date().toISOString(), "timestamptz");
    const audit = auditEventInsert(
      q,
      {
        // Who acted, in which workspace and what it was are the statement's own (the last argument): the token of
        // `tok`, the user of `usr` (none for the anonymous admin), the values `ahead` read; the values here are replaced.
        actor: { kind: "anonymous_admin", isAdmin: true, via: "api_token", apiTokenId: 0 },
        action: "participant.update",
        entityType: "participant",
        entityId: ids.participantId,
        contractId: ids.contractId,
        workspaceId: 0,
        requestId,
        before: {},
        after: after as Prisma.InputJsonValue,
      },
      { actorUserId: "(SELECT id FROM usr)", apiTokenId: "(SELECT id FROM tok)", workspaceId: "ahead.workspace_id", before: "ahead.before" },
    );
    const base = q.p(linkBase, "text");
    // By `allowed` first: one of two constant texts, whose hash the string keeps, where a key
    // holding its few hundred characters would be hashed anew on every request.
    const texts = aheadTexts.get(allowed);
    const key = `${shape}|${now}`;
    let text = texts?.get(key);
    if (!text) {
      text = writeAheadText({ sent, value, target, now, audit, base, allowed });
      if (aheadTextCount < MAX_AHEAD_TEXTS) {
        if (texts) texts.set(key, text);
        else aheadTexts.set(allowed, new Map([[key, text]]));
        aheadTextCount++;
      }
    }
    return text;
  };
}

const SENT_ORDER: readonly (keyof TParticipantChanges)[] = [...Object.values(COLUMNS), "canUpdateContract"];

/**
 * The write-ahead's texts, by the attributes sent, the numbering of the placeholders (the last
 * one's) and the credentials' condition: as many as the code can build (a combination of the ten
 * attributes each), bounded all the same; past the bound a text is written for each request.
 */
const aheadTexts = new Map<string, Map<string, ReturnType<TWriteAhead>>>();
let aheadTextCount = 0;
const MAX_AHEAD_TEXTS = 500;

/** The write-ahead's statement parts, from its placeholders (`updateWriteAhead`). */
function writeAheadText({ sent, value, target, now, audit, base, allowed }: {
  sent: [keyof TParticipantChanges, unknown, string][];
  value: Map<keyof TParticipantChanges, string>;
  target: { contractId: string; partyId: string; participantId: string };
  now: string;
  audit: (from: string) => string;
  base: string;
  allowed: string;
}): ReturnType<TWriteAhead> {
  const column = (field: keyof TParticipantChanges) => PARTICIPANT_COLUMNS[field];
  const resolved = (field: keyof TParticipantChanges) => value.get(field) ?? `x.${column(field)}`;
  const filled = (field: keyof TParticipantChanges) => `COALESCE(${resolved(field)} ~ '[0-9A-Za-z]', false)`;
  // Checked for an option being chosen now only: one chosen earlier stays valid (planUpdate).
  const offered = (table: string, field: keyof TParticipantChanges) =>
    value.has(field) ? [`EXISTS (SELECT 1 FROM ${table} o WHERE o.template_id = c.template_id AND o.name = ${value.get(field)})`] : [];
  // What the participant's channel and two-step method require, as one scan of the two (small) tables.
  const requirementsMet = `NOT EXISTS (SELECT 1 FROM (
      SELECT o.required_participant_attributes AS required FROM template_delivery_channels o
       WHERE o.template_id = c.template_id AND o.name = ${resolved("deliveryChannel")}
      UNION ALL
      SELECT o.required_participant_attributes FROM template_two_step_methods o
       WHERE o.template_id = c.template_id AND o.name = ${resolved("twoStepMethod")}
    ) o WHERE ${PARTICIPANT_ATTRIBUTES.map((attribute) => `('${attribute}' = ANY(o.required) AND NOT ${filled(REQUIRED_COLUMNS[attribute])})`).join(" OR ")})`;
  const checks = [
    `c.id = ${target.contractId}`,
    `p.id = ${target.partyId}`,
    `x.id = ${target.participantId}`,
    IN_SCOPE("c"),
    allowed,
    `c.state IN (${EDITABLE_CONTRACT_STATES.map((state) => `'${state}'`).join(", ")})`,
    `(scope.all_ws OR EXISTS (SELECT 1 FROM usr JOIN workspace_memberships m ON m.user_id = usr.id
                              WHERE m.workspace_id = c.workspace_id AND m.role = 'editor'))`,
    ...sent.map(([field]) => `x.${column(field)} IS DISTINCT FROM ${value.get(field)}`),
    ...offered("template_delivery_channels", "deliveryChannel"),
    ...offered("template_sign_methods", "signMethod"),
    ...offered("template_two_step_methods", "twoStepMethod"),
    requirementsMet,
    `(NOT ${resolved("signatory")} OR ${resolved("canUpdateContract")})`,
  ];
  const ctes = `ahead AS (
      SELECT x.id, x.version, c.workspace_id, jsonb_build_object(${sent.map(([, , entry]) => entry).join(", ")}) AS before
        FROM contracts c JOIN parties p ON p.contract_id = c.id JOIN participants x ON x.party_id = p.id, scope
       WHERE ${checks.join("\n         AND ")}
    ), ${participantWriteCtes({
      values: sent.map(([field]) => [field, value.get(field)!] as const),
      from: "ahead",
      where: "participants.id = ahead.id AND participants.version = ahead.version",
      now,
      audit: audit("upd JOIN ahead ON ahead.id = upd.id"),
    })}`;
  // The answer as the route would write it (ETag, then the body), so the route only sends it.
  const links = { base, contractId: target.contractId, partyId: "upd.party_id" };
  return { ctes, written: `(SELECT ${participantEtagSql("upd")} || ${participantJsonSql("upd", links)}::text FROM upd)` };
}

/**
 * The answer `updateWriteAhead` wrote (its `written`, not null): the participant's ETag and the
 * body, exactly as the route answers an update it did itself (`serializeParticipant` with links).
 */
export function writtenParticipantAnswer(written: unknown): { etag: string; body: string } {
  // The ETag is `"p<id>-v<version>"`: its second quote ends it, and the JSON body starts there.
  const text = typeof written === "string" ? written : "";
  const end = text.startsWith('"p') ? text.indexOf('"', 1) + 1 : 0;
  if (end === 0 || text.charAt(end) !== "{") throw new Error("a participant write-ahead did not answer its ETag and body");
  return { etag: text.slice(0, end), body: text.slice(end) };
}

/** The targets, or the 404 for the first one missing (contract, then party and participant). */
function foundTargets(row: TTargetsRow | null, ids: TTargetIds) {
  if (!row) throw contractNotFound(ids.contractId);
  if (!row.party) throw new DomainError("resource_not_found", `Contract ${ids.contractId} has no party ${ids.partyId}.`);
  if (!row.participant) throw new DomainError("resource_not_found", `Party ${ids.partyId} has no participant ${ids.participantId}.`);
  return { contract: row.contract, party: row.party, current: reviveDates(row.participant), available: toAvailableOptions(row.options) };
}

/**
 * The checks, in the documented order, on what was read; then the statement that writes the change
 * (null when nothing changes: `{}`, or only values the participant already has, so `updated_time`,
 * the ETag and the audit log stay as they are).
 */
function planUpdate(options: UpdateParticipantOptions, { contract, party, current, available }: ReturnType<typeof foundTargets>) {
  const { actor, ifMatch, changes, requestId } = options;
  const etag = participantEtag(current);
  if (ifMatch !== null && !ifMatchAllows(ifMatch, etag)) {
    throw new DomainError("stale_if_match", "The participant changed since the version named in If-Match; fetch it again.", {
      headers: { ETag: etag },
    });
  }
  assertContractEditable(actor, contract);
  // `{}` updates nothing (docs/api.md "Updating a participant"), whatever the rules would say about the stored state.
  if (Object.keys(changes).length === 0) return { write: null };

  const { data, before, after } = changedFields(current, changes);
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
  problems.push(...prefixProblems("", relevant));
  const error = participantProblemsError(problems);
  if (error) throw error;
  if (Object.keys(data).length === 0) return { write: null };

  // One statement: the participant (only the version checked above), its party's `updated_time`
  // (an individual party is its participant, docs/api.md: its name and number follow) and the
  // audit event. No row back means the participant changed since it was read.
  const q = new SqlParams();
  const now = q.p(new Date().toISOString(), "timestamptz");
  const values = (Object.entries(data) as [keyof TParticipantChanges, unknown][]).map(
    ([field, value]) => [field, q.p(value, PARTICIPANT_TYPES[field])] as const,
  );
  const audit = auditEventInsertSql(q, "upd", {
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
  const where = `participants.id = ${q.p(current.id, "int")} AND participants.version = ${q.p(current.version, "int")}`;
  const text = `WITH ${participantWriteCtes({ values, where, now, audit })}
    SELECT ${PARTICIPANT_JSON.upd} AS participant FROM upd`;
  return { write: { text, values: q.values } };
}

/**
 * The writes of an update, as CTEs of one statement: `upd`, the participant (the row `where` picks,
 * `from` joined in when given; its version bumped), `touched`, its party's `updated_at` (an
 * individual party is its participant, docs/api.md: its name and number follow), and `audited`,
 * the audit event (`audit`, an INSERT reading `upd`). `values` are the columns set and their
 * placeholders. No row in `upd` means nothing was written.
 */
function participantWriteCtes(w: { values: readonly (readonly [keyof TParticipantChanges, string])[]; from?: string; where: string; now: string; audit: string }): string {
  const column = (field: keyof TParticipantChanges) => PARTICIPANT_COLUMNS[field];
  const mirrored = w.values
    .filter(([field]) => field === "name" || field === "identificationNumber")
    .map(([field]) => `${column(field)} = CASE WHEN parties.type = 'individual' THEN upd.${column(field)} ELSE parties.${column(field)} END`);
  return `upd AS (
      UPDATE participants SET ${w.values.map(([field, value]) => `${column(field)} = ${value}`).join(", ")},
             version = participants.version + 1, updated_at = ${w.now}
        ${w.from ? `FROM ${w.from}` : ""} WHERE ${w.where}
      RETURNING participants.*
    ), touched AS (
      UPDATE parties SET ${[...mirrored, `updated_at = ${w.now}`].join(", ")} FROM upd WHERE parties.id = upd.party_id
    ), audited AS (
      ${w.audit}
    )`;
}

/** The SQL type of each writable participant column (enums by their PostgreSQL names). */
const PARTICIPANT_TYPES = {
  name: "text",
  title: "text",
  email: "text",
  phoneNumber: "text",
  identificationNumber: "text",
  deliveryChannel: "delivery_channel",
  signMethod: "sign_method",
  twoStepMethod: "two_step_method",
  signatory: "boolean",
  canUpdateContract: "boolean",
} as const satisfies Record<keyof TParticipantChanges, string>;

/**
 * The columns to write (only those whose value changes) and the changed attributes before and after,
 * by their API names, for the audit event. The same e-mail in another case is no change: e-mail
 * addresses are compared case-insensitively everywhere else too.
 */
function changedFields(current: TParticipantRow, changes: TUpdateParticipantRequest) {
  const data: TParticipantChanges = {};
  const before: Record<string, Prisma.InputJsonValue> = {};
  const after: Record<string, Prisma.InputJsonValue> = {};
  for (const attribute of Object.keys(COLUMNS) as TAttribute[]) {
    const value = changes[attribute];
    const column = COLUMNS[attribute];
    if (value === undefined || value === current[column]) continue;
    if (attribute === "email" && typeof value === "string" && value.toLowerCase() === current.email.toLowerCase()) continue;
    (data as Record<string, unknown>)[column] = value;
    before[attribute] = current[column];
    after[attribute] = value;
  }
  const canUpdate = changes._permissions?.["contract:update"];
  if (canUpdate !== undefined && canUpdate !== current.canUpdateContract) {
    data.canUpdateContract = canUpdate;
    before._permissions = { "contract:update": current.canUpdateContract };
    after._permissions = { "contract:update": canUpdate };
  }
  return { data, before, after };
}

/**
 * `If-Match` (RFC 9110 13.1.1): `*` or a list of entity tags, compared strongly, so a weak tag
 * (`W/"…"`) never matches. An empty or unparsable header matches nothing: a client that meant to
 * send a tag but sent garbage must not overwrite someone else's change.
 */
function ifMatchAllows(header: string, etag: string): boolean {
  const value = header.trim();
  if (value === "*") return true;
  return value.split(",").some((tag) => tag.trim() === etag);
}
