import { z } from "zod";

import { PARTY_TYPES } from "@/lib/domain/enums";

import {
  ZCountryCodeSchema,
  ZIdParamSchema,
  ZIdSchema,
  ZLinkSchema,
  ZNameSchema,
  ZTimestampSchema,
  oneOf,
  requestObject,
  typeError,
} from "./common";
import { answerShapeOf, fieldTable } from "./field-table";
import { CONTRACT_LIMITS } from "./limits";
import { ZPaginatedSchema } from "./pagination";
import { ZCreateParticipantRequestSchema, ZIdentificationNumberSchema, ZParticipantSchema } from "./participant";

// --- The party's fields (lib/schemas/field-table.ts): one row per column of `parties` ---

const AS_PRIVATE = "_private_ownerside";

/**
 * A party's fields. `write` names the rule a request writes it under, on creation only: a party is
 * added (with the contract or to a draft) and removed, never changed (docs/api.md "Adding and
 * removing parties and participants"). Audit events record a party with its participants.
 */
export const PARTY_FIELDS = fieldTable({
  id: { sql: "int", answer: { name: "id", type: ZIdSchema }, audit: true },
  /** The contract it belongs to: the answer's `_links`. */
  contractId: { sql: "int" },
  type: { sql: "party_type", answer: { name: "type", type: oneOf(PARTY_TYPES), last: true }, write: "company or individual", audit: true },
  name: {
    sql: "text",
    answer: { name: "name", type: z.string().meta({ description: "For an individual party, its participant's name." }) },
    write: "a company's; an individual party's is its participant's",
    audit: true,
  },
  countryCode: {
    sql: "text",
    answer: { name: "country_code", type: z.string().meta({ description: 'ISO 3166-1 alpha-2, upper-case, or "" when not set.' }) },
    write: "ISO 3166-1 alpha-2",
    audit: true,
  },
  identificationNumber: {
    sql: "text",
    answer: { name: "identification_number", type: z.string().meta({ description: "For an individual party, its participant's." }) },
    write: "a company's; an individual party's is its participant's",
    audit: true,
  },
  myParty: { sql: "boolean", answer: { name: "my_party", type: z.boolean().meta({ description: "True for the owner-side party." }) }, audit: true },
  createdAt: { sql: "timestamptz", answer: { name: "created_time", in: AS_PRIVATE, type: ZTimestampSchema } },
  updatedAt: { sql: "timestamptz", nullable: true, answer: { name: "updated_time", in: AS_PRIVATE, type: ZTimestampSchema } },
});

// --- Requests (docs/api.md "Creating a contract") ---

export const ZCreateCompanyPartyRequestSchema = requestObject(
  {
    type: z.literal("company"),
    name: ZNameSchema.meta({ description: "The company's name." }),
    country_code: ZCountryCodeSchema.optional(),
    identification_number: ZIdentificationNumberSchema.optional(),
    participants: z
      .array(ZCreateParticipantRequestSchema, { error: typeError("a list") })
      .min(1, "a company party needs at least one participant")
      .max(CONTRACT_LIMITS.participantsPerParty, `a party can have at most ${CONTRACT_LIMITS.participantsPerParty} participants`),
  },
  { participant: 'is for an individual party; list a company\'s people in "participants"' },
).meta({ id: "CreateCompanyPartyRequest" });

export const ZCreateIndividualPartyRequestSchema = requestObject(
  {
    type: z.literal("individual"),
    participant: ZCreateParticipantRequestSchema,
    country_code: ZCountryCodeSchema.optional(),
    // Accepted so clients can send one party shape for both types, but the party's name and number
    // are always its participant's (docs/api.md).
    name: z.string({ error: typeError("a string") }).optional().meta({ description: "Ignored: the participant's name is used." }),
    identification_number: z
      .string({ error: typeError("a string") })
      .optional()
      .meta({ description: "Ignored: the participant's identification_number is used." }),
  },
  { participants: 'is for a company party; an individual party has exactly one "participant"' },
).meta({ id: "CreateIndividualPartyRequest" });

export const ZCreatePartyRequestSchema = z
  .discriminatedUnion("type", [ZCreateCompanyPartyRequestSchema, ZCreateIndividualPartyRequestSchema], {
    error: (issue) => {
      if (issue.code !== "invalid_union") return typeError("an object")(issue);
      const type = (issue.input as { type?: unknown } | undefined)?.type;
      return type === undefined ? "is required" : `must be one of: ${PARTY_TYPES.join(", ")}`;
    },
  })
  .meta({ id: "CreatePartyRequest" });

export const ZPartyPathParamsSchema = z.object({
  contract_id: ZIdParamSchema.meta({ description: "The contract that holds the party." }),
  party_id: ZIdParamSchema.meta({ description: "The party." }),
});

// --- Responses (docs/api.md "The domain") ---

/** The answered fields; each kind of party narrows `type` and adds its people. */
const partyFields = answerShapeOf(PARTY_FIELDS, {
  _links: z
    .object({ self: ZLinkSchema, contract: ZLinkSchema })
    .optional()
    .meta({ description: "Present on the party routes." }),
});

export const ZCompanyPartySchema = z
  .object({
    ...partyFields,
    type: z.literal("company"),
    participants: z.array(ZParticipantSchema).meta({
      description: "Empty only for the owner-side party of a contract the anonymous admin created.",
    }),
  })
  .meta({ id: "CompanyParty" });

export const ZIndividualPartySchema = z
  .object({ ...partyFields, type: z.literal("individual"), participant: ZParticipantSchema })
  .meta({ id: "IndividualParty" });

export const ZPartySchema = z.discriminatedUnion("type", [ZCompanyPartySchema, ZIndividualPartySchema]).meta({ id: "Party" });

/** A party without its people, as in contract list items. */
export const ZPartySummarySchema = z.object(partyFields).meta({ id: "PartySummary" });

export const ZPartyListSchema = ZPaginatedSchema(ZPartySchema).meta({ id: "PartyList" });

export type TCreateCompanyPartyRequest = z.infer<typeof ZCreateCompanyPartyRequestSchema>;
export type TCreateIndividualPartyRequest = z.infer<typeof ZCreateIndividualPartyRequestSchema>;
export type TCreatePartyRequest = z.infer<typeof ZCreatePartyRequestSchema>;
export type TCreatePartyRequestInput = z.input<typeof ZCreatePartyRequestSchema>;
export type TPartyPathParams = z.infer<typeof ZPartyPathParamsSchema>;
export type TCompanyParty = z.infer<typeof ZCompanyPartySchema>;
export type TIndividualParty = z.infer<typeof ZIndividualPartySchema>;
export type TParty = z.infer<typeof ZPartySchema>;
export type TPartySummary = z.infer<typeof ZPartySummarySchema>;
export type TPartyList = z.infer<typeof ZPartyListSchema>;
