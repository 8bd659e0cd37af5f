// The `data` of each webhook event (docs/events.md "Webhooks"): the changed resource as its GET route
// answers it, from the same producers (lib/api/json), seen as the anonymous admin sees it
// (`my_participant` is false); or, when it no longer exists, what the audit trail kept. Handed to
// the dispatcher by instrumentation.ts, since building the API's JSON is this layer's job.
import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { WEBHOOK_EVENT_TYPES, isWebhookEventType } from "@/lib/domain/webhooks";
import type { TBuildWebhookData } from "@/lib/services/webhooks/webhook-dispatcher-options";
import type { TWebhookEvent } from "@/lib/services/webhooks/webhook-row";
import { contractAnswer } from "@/lib/api/json/contract";
import { dataFieldAnswer } from "@/lib/api/json/data-field";
import { participantAnswer } from "@/lib/api/json/participant";
import { partyAnswer } from "@/lib/api/json/party";

const VIEWER: Actor = { kind: "anonymous_admin", isAdmin: true, via: "api_token", apiTokenId: 0 };

type TResource = "contract" | "party" | "participant" | "data_field";

const asObject = (value: unknown): Record<string, unknown> | null => (value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null);

function gone(event: TWebhookEvent, resource: TResource) {
  return { id: event.entityId, resource, contract_id: event.contractId, deleted: true as const, before: asObject(event.before), after: asObject(event.after) };
}

const RESOURCE_OF_ENTITY: Record<string, TResource> = { contract: "contract", party: "party", participant: "participant", data_field: "data_field" };

/** The answer of the event's row, or null when the row is gone. */
async function currentAnswer(db: Tx, kind: TResource, id: number, origin: string): Promise<string | null> {
  switch (kind) {
    case "contract":
      return (await db.contract.count({ where: { id } })) > 0 ? contractAnswer(db, VIEWER, origin, id) : null;
    case "party":
      return (await db.party.count({ where: { id } })) > 0 ? partyAnswer(db, VIEWER, origin, id) : null;
    case "participant": {
      const row = await db.participant.findUnique({ where: { id }, select: { party: { select: { contractId: true } } } });
      return row ? participantAnswer(db, VIEWER, origin, row.party.contractId, id) : null;
    }
    case "data_field":
      return (await db.contractDataField.count({ where: { id } })) > 0 ? dataFieldAnswer(db, origin, id) : null;
  }
}

export const buildWebhookEventData: TBuildWebhookData = async (db: Tx, event: TWebhookEvent, origin: string) => {
  const resource = RESOURCE_OF_ENTITY[event.entityType] ?? "contract";
  if (!isWebhookEventType(event.action) || WEBHOOK_EVENT_TYPES[event.action].resource === "deleted") return gone(event, resource);
  const kind = WEBHOOK_EVENT_TYPES[event.action].resource as TResource;
  const answer = await currentAnswer(db, kind, event.entityId, origin);
  return answer === null ? gone(event, kind) : JSON.parse(answer);
};
