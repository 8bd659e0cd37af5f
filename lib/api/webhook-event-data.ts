// The `data` of each webhook event (docs/api.md "Webhooks"): the changed resource as its GET route
// answers it (seen as the anonymous admin sees it: `my_participant` is false), or, when it no longer
// exists, what the audit trail kept. Handed to the dispatcher by instrumentation.ts, since building
// the API's JSON is this layer's job.
import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { WEBHOOK_EVENT_TYPES, isWebhookEventType } from "@/lib/domain/webhooks";
import { CONTRACT_DETAIL_INCLUDE } from "@/lib/services/contracts/contract-row";
import { PARTY_WITH_PARTICIPANTS_INCLUDE } from "@/lib/services/parties/party-row";
import type { TBuildWebhookData } from "@/lib/services/webhooks/dispatch-webhooks";
import type { TWebhookEvent } from "@/lib/services/webhooks/webhook-row";

import { serializeContract, serializeDataField, serializeParticipant, serializeParty } from "./serializers";

const VIEWER: Actor = { kind: "anonymous_admin", isAdmin: true, via: "api_token", apiTokenId: 0 };

const asObject = (value: unknown): Record<string, unknown> | null => (value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null);

function gone(event: TWebhookEvent, resource: "contract" | "party" | "participant" | "data_field") {
  return { id: event.entityId, resource, contract_id: event.contractId, deleted: true as const, before: asObject(event.before), after: asObject(event.after) };
}

const RESOURCE_OF_ENTITY: Record<string, "contract" | "party" | "participant" | "data_field"> = {
  contract: "contract",
  party: "party",
  participant: "participant",
  data_field: "data_field",
};

export const buildWebhookEventData: TBuildWebhookData = async (db: Tx, event: TWebhookEvent, origin: string) => {
  const kind = isWebhookEventType(event.action) ? WEBHOOK_EVENT_TYPES[event.action].resource : "deleted";
  const resource = RESOURCE_OF_ENTITY[event.entityType] ?? "contract";
  switch (kind) {
    case "contract": {
      const row = await db.contract.findUnique({ where: { id: event.entityId }, include: CONTRACT_DETAIL_INCLUDE });
      return row ? serializeContract(row, { actor: VIEWER, origin }) : gone(event, "contract");
    }
    case "party": {
      const row = await db.party.findUnique({ where: { id: event.entityId }, include: PARTY_WITH_PARTICIPANTS_INCLUDE });
      return row ? serializeParty(row, { actor: VIEWER, links: { origin } }) : gone(event, "party");
    }
    case "participant": {
      const row = await db.participant.findUnique({ where: { id: event.entityId }, include: { party: { select: { contractId: true } } } });
      return row ? serializeParticipant(row, { actor: VIEWER, links: { origin, contractId: row.party.contractId, partyId: row.partyId } }) : gone(event, "participant");
    }
    case "data_field": {
      const row = await db.contractDataField.findUnique({ where: { id: event.entityId } });
      return row ? serializeDataField(row, { origin }) : gone(event, "data_field");
    }
    case "deleted":
      return gone(event, resource);
  }
};
