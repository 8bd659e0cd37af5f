import { expect, test } from "vitest";

import {
  CONTRACT_STATES,
  DELIVERY_CHANNELS,
  DELIVERY_STATUSES,
  EMAIL_STATUSES,
  PARTICIPANT_ATTRIBUTES,
  PARTY_TYPES,
  SIGN_METHODS,
  SIGN_STATES,
  SIGNING_ORDERS,
  TWO_STEP_METHODS,
  WORKSPACE_ROLES,
} from "@/lib/domain/enums";
import {
  ContractState,
  DeliveryChannel,
  DeliveryStatus,
  EmailStatus,
  ParticipantAttribute,
  PartyType,
  SignMethod,
  SignState,
  SigningOrder,
  TwoStepMethod,
  WorkspaceRole,
} from "@/lib/generated/prisma/enums";

// The API validates with lib/domain/enums and the database with the Prisma enums: a value in one
// but not the other would be a 500 (or a value the API can never accept).
test.each([
  ["ContractState", CONTRACT_STATES, ContractState],
  ["PartyType", PARTY_TYPES, PartyType],
  ["DeliveryChannel", DELIVERY_CHANNELS, DeliveryChannel],
  ["SignMethod", SIGN_METHODS, SignMethod],
  ["TwoStepMethod", TWO_STEP_METHODS, TwoStepMethod],
  ["SignState", SIGN_STATES, SignState],
  ["SigningOrder", SIGNING_ORDERS, SigningOrder],
  ["DeliveryStatus", DELIVERY_STATUSES, DeliveryStatus],
  ["WorkspaceRole", WORKSPACE_ROLES, WorkspaceRole],
  ["ParticipantAttribute", PARTICIPANT_ATTRIBUTES, ParticipantAttribute],
  ["EmailStatus", EMAIL_STATUSES, EmailStatus],
] as const)("%s has the same values in lib/domain/enums and the Prisma schema", (_name, domain, prisma) => {
  expect([...domain].sort()).toEqual(Object.values(prisma).sort());
});
