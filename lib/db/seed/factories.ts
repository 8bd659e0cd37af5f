// Plain functions that insert rows directly, for what no service makes (users, workspaces,
// templates, a chosen API token) and for tests that need a row as it is, bypassing the API's rules
// (e.g. `createContract` with any state). The demo seed makes its contracts through lib/services.
// Rows are dated by `now()` (lib/clock.ts), so under `atTime` they are as old as the story needs.
import type { TDurationType } from "@/lib/domain/lifecycle";
import type { TBody } from "@/lib/domain/contract-document";
import { hashPassword } from "better-auth/crypto";
import { apiTokenDisplayPrefix, generateApiToken, hashApiToken } from "@/lib/domain/access";
import type { Tx } from "@/lib/db";
import { now as clockNow } from "@/lib/clock";
import {
  DEFAULT_CHANNEL_REQUIREMENTS,
  DEFAULT_TWO_STEP_REQUIREMENTS,
  type TContractState,
  type TDeliveryChannel,
  type TParticipantAttribute,
  type TSignMethod,
  type TTwoStepMethod,
} from "@/lib/domain/enums";

type Db = Tx;

/** Created and updated now (lib/clock.ts). */
const dated = () => {
  const at = clockNow();
  return { createdAt: at, updatedAt: at };
};

let counter = 0;
/** Unique enough for names and e-mails across one process's tests. */
export function uniqueSuffix(): string {
  counter += 1;
  return `${Date.now().toString(36)}${counter.toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
}

export async function createWorkspace(
  db: Db,
  input: { name?: string; companyName?: string; countryCode?: string; description?: string; timeZone?: string } = {},
) {
  const name = input.name ?? `Workspace ${uniqueSuffix()}`;
  return db.workspace.create({
    data: {
      ...dated(),
      name,
      companyName: input.companyName ?? `${name} Ltd`,
      countryCode: input.countryCode ?? "SE",
      description: input.description ?? "",
      ...(input.timeZone ? { timeZone: input.timeZone } : {}),
    },
  });
}

export interface UserInput {
  name?: string;
  email?: string;
  isAdmin?: boolean;
  active?: boolean;
  title?: string;
  phoneNumber?: string;
  /** Signs in with this password (stored as better-auth's credential account). */
  password?: string;
  /** Or the hash of one (better-auth's `hashPassword`), made once for many users. */
  passwordHash?: string;
  memberships?: { workspaceId: number; role: "editor" | "viewer" }[];
}

export async function createUser(db: Db, input: UserInput = {}) {
  const suffix = uniqueSuffix();
  const user = await db.user.create({
    data: {
      ...dated(),
      name: input.name ?? `User ${suffix}`,
      email: (input.email ?? `user-${suffix}@example.com`).toLowerCase(),
      emailVerified: true,
      isAdmin: input.isAdmin ?? false,
      active: input.active ?? true,
      title: input.title ?? "",
      phoneNumber: input.phoneNumber ?? "",
      memberships: input.memberships?.length ? { create: input.memberships } : undefined,
    },
  });
  const passwordHash = input.passwordHash ?? (input.password ? await hashPassword(input.password) : undefined);
  if (passwordHash) {
    await db.account.create({
      data: {
        ...dated(),
        userId: user.id,
        accountId: String(user.id),
        providerId: "credential",
        password: passwordHash,
      },
    });
  }
  return user;
}

/** Stores only the token's hash; the plain token is returned once. */
export async function createApiToken(db: Db, input: { name?: string; createdById?: number | null; token?: string } = {}) {
  const token = input.token ?? generateApiToken();
  const record = await db.apiToken.create({
    data: {
      createdAt: clockNow(),
      name: input.name ?? `Token ${uniqueSuffix()}`,
      prefix: apiTokenDisplayPrefix(token),
      tokenHash: hashApiToken(token),
      createdById: input.createdById ?? null,
    },
  });
  return { token, record };
}

export async function createTemplateType(db: Db, input: { name?: string; description?: string; extensionType?: string } = {}) {
  return db.templateType.create({
    data: {
      ...dated(),
      name: input.name ?? `Template type ${uniqueSuffix()}`,
      description: input.description ?? "",
      extensionType: input.extensionType ?? "pdf",
    },
  });
}

type Option<N extends string> = N | { name: N; preferred?: boolean; requiredParticipantAttributes?: TParticipantAttribute[] };

export interface TemplateInput {
  name?: string;
  templateTypeId?: number | null;
  workspaceIds: number[];
  /** The first option is preferred unless one says `preferred: true`. */
  deliveryChannels?: Option<TDeliveryChannel>[];
  signMethods?: Option<TSignMethod>[];
  twoStepMethods?: Option<TTwoStepMethod>[];
  dataFields?: { name: string; description?: string; placeholder?: string; customId?: string; defaultValue?: string }[];
  /** The text (lib/domain/contract-document.ts); none by default. */
  body?: TBody;
  /** The duration a new contract takes by default (docs/lifecycle.md); none by default. */
  term?: { durationType: TDurationType; initialDuration?: string; renewalPeriod?: string; noticePeriod?: string };
}

function normalizeOptions<N extends string>(options: Option<N>[], requirements?: Record<N, TParticipantAttribute[]>) {
  const list = options.map((o) => (typeof o === "string" ? { name: o } : o));
  const anyPreferred = list.some((o) => o.preferred);
  return list.map((o, position) => ({
    name: o.name,
    preferred: anyPreferred ? Boolean(o.preferred) : position === 0,
    position,
    ...(requirements
      ? { requiredParticipantAttributes: o.requiredParticipantAttributes ?? requirements[o.name] }
      : {}),
  }));
}

export async function createTemplate(db: Db, input: TemplateInput) {
  return db.template.create({
    data: {
      ...dated(),
      name: input.name ?? `Template ${uniqueSuffix()}`,
      templateTypeId: input.templateTypeId ?? null,
      ...(input.body ? { body: input.body as object } : {}),
      ...input.term,
      workspaces: { create: input.workspaceIds.map((workspaceId) => ({ workspaceId })) },
      deliveryChannels: {
        create: normalizeOptions(input.deliveryChannels ?? ["email"], DEFAULT_CHANNEL_REQUIREMENTS),
      },
      signMethods: { create: normalizeOptions(input.signMethods ?? ["standard_esign"]) },
      twoStepMethods: {
        create: normalizeOptions(input.twoStepMethods ?? ["none"], DEFAULT_TWO_STEP_REQUIREMENTS),
      },
      dataFields: {
        create: (input.dataFields ?? []).map((f, position) => ({ ...f, position })),
      },
    },
  });
}

/**
 * A workspace, a template offered in it and, for each role in `members`, a user who is a member with
 * that role: where most tests start.
 */
export async function createWorkspaceWithTemplate<R extends "editor" | "viewer" = never>(
  db: Db,
  input: { workspace?: Parameters<typeof createWorkspace>[1]; template?: Omit<TemplateInput, "workspaceIds">; members?: readonly R[] } = {},
) {
  const workspace = await createWorkspace(db, input.workspace);
  const template = await createTemplate(db, { ...input.template, workspaceIds: [workspace.id] });
  const members = {} as Record<R, Awaited<ReturnType<typeof createUser>>>;
  for (const role of input.members ?? []) members[role] = await createUser(db, { memberships: [{ workspaceId: workspace.id, role }] });
  return { workspace, template, members };
}

export interface ParticipantInput {
  name?: string;
  email?: string;
  phoneNumber?: string;
  title?: string;
  identificationNumber?: string;
  deliveryChannel?: TDeliveryChannel;
  signMethod?: TSignMethod;
  twoStepMethod?: TTwoStepMethod;
  signatory?: boolean;
  canUpdateContract?: boolean;
  signState?: "undecided" | "signed" | "declined";
  deliveryStatus?: "not_sent" | "pending" | "success" | "opened" | "failure" | "bounce";
}

export type CounterpartyInput =
  | { type: "company"; name?: string; countryCode?: string; identificationNumber?: string; participants: ParticipantInput[] }
  | { type: "individual"; countryCode?: string; participant: ParticipantInput };

function participantData(p: ParticipantInput, now: Date) {
  const suffix = uniqueSuffix();
  const signState = p.signState ?? "undecided";
  const signatory = p.signatory ?? true;
  return {
    name: p.name ?? `Participant ${suffix}`,
    email: p.email ?? `participant-${suffix}@example.org`,
    phoneNumber: p.phoneNumber ?? "",
    title: p.title ?? "",
    identificationNumber: p.identificationNumber ?? "",
    deliveryChannel: p.deliveryChannel ?? "email",
    signMethod: p.signMethod ?? "standard_esign",
    twoStepMethod: p.twoStepMethod ?? "none",
    signatory,
    canUpdateContract: p.canUpdateContract ?? signatory,
    signState,
    signStateUpdatedAt: signState === "undecided" ? null : now,
    deliveryStatus: p.deliveryStatus ?? "not_sent",
  };
}

/**
 * A contract with the owner-side party (holding `owner` as organizer, when given), the
 * counterparties, and copies of the template's data fields.
 */
export async function createContract(
  db: Db,
  input: {
    workspaceId: number;
    templateId: number;
    name?: string;
    state?: TContractState;
    owner?: { id: number; name: string; email: string; title?: string; phoneNumber?: string } | null;
    counterparties?: CounterpartyInput[];
    createdAt?: Date;
  },
) {
  const now = input.createdAt ?? clockNow();
  const [workspace, template] = await Promise.all([
    db.workspace.findUniqueOrThrow({ where: { id: input.workspaceId } }),
    db.template.findUniqueOrThrow({ where: { id: input.templateId }, include: { dataFields: { orderBy: { position: "asc" } } } }),
  ]);
  const owner = input.owner ?? null;
  const contract = await db.contract.create({
    data: {
      name: input.name ?? template.name,
      state: input.state ?? "draft",
      workspaceId: workspace.id,
      templateId: template.id,
      body: template.body ?? undefined,
      createdById: owner?.id ?? null,
      createdAt: now,
      updatedAt: now,
      dataFields: {
        create: template.dataFields.map((f) => ({
          name: f.name,
          description: f.description,
          placeholder: f.placeholder,
          customId: f.customId,
          value: f.defaultValue,
          createdAt: now,
          updatedAt: now,
        })),
      },
    },
  });
  await db.party.create({
    data: {
      contractId: contract.id,
      type: "company",
      name: workspace.companyName,
      countryCode: workspace.countryCode,
      myParty: true,
      createdAt: now,
      participants: owner
        ? {
            create: {
              ...participantData(
                { name: owner.name, email: owner.email, title: owner.title, phoneNumber: owner.phoneNumber, signatory: false, canUpdateContract: true },
                now,
              ),
              userId: owner.id,
              organizer: true,
              createdAt: now,
              updatedAt: now,
            },
          }
        : undefined,
    },
  });
  for (const cp of input.counterparties ?? []) {
    const participants = cp.type === "company" ? cp.participants : [cp.participant];
    const data = participants.map((p) => ({ ...participantData(p, now), createdAt: now, updatedAt: now }));
    const first = data[0]!;
    await db.party.create({
      data: {
        contractId: contract.id,
        type: cp.type,
        name: cp.type === "company" ? (cp.name ?? `Company ${uniqueSuffix()}`) : first.name,
        countryCode: cp.countryCode ?? "",
        identificationNumber: cp.type === "company" ? (cp.identificationNumber ?? "") : first.identificationNumber,
        createdAt: now,
        participants: { create: data },
      },
    });
  }
  return contract;
}
