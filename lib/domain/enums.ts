// The value sets of the domain (docs/api.md "The domain"). The Prisma schema declares the same
// values as Postgres enums; test/domain/enums.test.ts keeps the two in step.

export const CONTRACT_STATES = ["draft", "pending", "overdue", "signed", "declined", "withdrawn"] as const;
/** `ordered`: signatories sign in stages by `sign_order` (docs/signing.md "Signing order"). */
export const SIGNING_ORDERS = ["parallel", "ordered"] as const;
export const PARTY_TYPES = ["company", "individual"] as const;
export const DELIVERY_CHANNELS = ["email", "sms", "same_device", "none", "email_and_sms"] as const;
export const SIGN_METHODS = [
  "standard_esign",
  "sms",
  "swedish_bankid",
  "norwegian_bankid",
  "danish_nemid",
  "finnish_bankid",
  "handwritten_signature",
  "eid_sign",
] as const;
export const TWO_STEP_METHODS = ["none", "email", "sms"] as const;
export const SIGN_STATES = ["undecided", "signed", "declined"] as const;
export const DELIVERY_STATUSES = ["not_sent", "pending", "success", "opened", "failure", "bounce"] as const;
export const WORKSPACE_ROLES = ["editor", "viewer"] as const;
export const PARTICIPANT_ATTRIBUTES = ["email", "phone_number"] as const;
/** An outbox message's state (docs/mail.md): `kept` when no SMTP server is configured. */
export const EMAIL_STATUSES = ["queued", "sending", "sent", "failed", "kept", "undeliverable"] as const;

export type TContractState = (typeof CONTRACT_STATES)[number];
export type TSigningOrder = (typeof SIGNING_ORDERS)[number];
export type TPartyType = (typeof PARTY_TYPES)[number];
export type TDeliveryChannel = (typeof DELIVERY_CHANNELS)[number];
export type TSignMethod = (typeof SIGN_METHODS)[number];
export type TTwoStepMethod = (typeof TWO_STEP_METHODS)[number];
export type TParticipantAttribute = (typeof PARTICIPANT_ATTRIBUTES)[number];
export type TEmailStatus = (typeof EMAIL_STATUSES)[number];

/** States in which parties and participants may still change. */
export const EDITABLE_CONTRACT_STATES: readonly TContractState[] = ["draft", "pending"];

/**
 * What each option requires of a participant (docs/api.md "The domain"), used when a template does not say
 * otherwise. Templates store their own `required_participant_attributes`; these fill them in.
 */
export const DEFAULT_CHANNEL_REQUIREMENTS: Record<TDeliveryChannel, TParticipantAttribute[]> = {
  email: ["email"],
  sms: ["phone_number"],
  email_and_sms: ["email", "phone_number"],
  same_device: [],
  none: [],
};
export const DEFAULT_TWO_STEP_REQUIREMENTS: Record<TTwoStepMethod, TParticipantAttribute[]> = {
  none: [],
  email: ["email"],
  sms: ["phone_number"],
};
