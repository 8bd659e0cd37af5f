// Webhooks (docs/events.md "Webhooks"): which audit actions are events, the retry schedule, and which
// addresses a callback may reach. Pure: the dispatcher and the API use these.
import { backoffDelay } from "@/lib/domain/retry";
import { isIP } from "node:net";

/**
 * The audit actions that are webhook events, and what each one's `data` is. An action not listed
 * here (e.g. the webhook subscriptions' own `webhook.*` audit events) is never delivered, so a
 * new audit action becomes an event only when it is added here and documented.
 */
export const WEBHOOK_EVENT_TYPES = {
  "contract.create": { resource: "contract", summary: "A contract was created (POST /v1/contracts/create)." },
  "contract.publish": { resource: "contract", summary: "A draft was published: it is pending and invitations are out." },
  "contract.sign": { resource: "contract", summary: "The last signatory signed: the contract is signed." },
  "contract.decline": { resource: "contract", summary: "A signatory declined: the contract is declined." },
  "contract.seal": { resource: "contract", summary: "The sealed signed copy (the `verification` file, with its completion certificate) was stored and mailed to the participants." },
  "contract.overdue": { resource: "contract", summary: "The signing period ended before every signatory signed." },
  "contract.stage_start": { resource: "contract", summary: "A stage of an ordered contract opened (at publishing, and when the stage before it signed): its signatories were invited; `after.stage` and `after.participant_ids` name them." },
  "contract.withdraw": { resource: "contract", summary: "Staff withdrew the pending contract: its signing links no longer work and every participant was told by e-mail; `reason` is the one staff gave (`\"\"` for none).", carries: ["reason"] },
  "contract.cancel": { resource: "contract", summary: "Staff gave notice on a signed contract: it is `canceled` and ends at the end of its current period (`after.end_date`)." },
  "contract.terminate": { resource: "contract", summary: "Staff ended a signed contract early, now or at the end of `after.end_date`; it is then `ended` with sub-state `terminated`." },
  "contract.activate": { resource: "contract", summary: "A signed contract's start date came: its lifecycle state went from `awaiting` to `active`." },
  "contract.renew": { resource: "contract", summary: "A recurring contract began a new period (`after.renewals`, `after.period_start_date`); one event per period, also when several are caught up at once." },
  "contract.end": { resource: "contract", summary: "A signed contract ended (its last period passed, notice took effect, or a termination): lifecycle state `ended`." },
  "contract.internal_reminder_create": { resource: "contract", summary: "Staff set an internal reminder on the contract (`after.reminder_id`, `after.date`, `after.recipient_id`)." },
  "contract.internal_reminder_delete": { resource: "contract", summary: "Staff removed an internal reminder not yet sent (`before` holds it)." },
  "contract.delete": { resource: "deleted", summary: "A contract was deleted with its parties, participants and data fields." },
  "party.create": { resource: "party", summary: "A party was added to a contract." },
  "party.delete": { resource: "deleted", summary: "A party was removed from a contract." },
  "participant.create": { resource: "participant", summary: "A participant was added to a party." },
  "participant.update": { resource: "participant", summary: "A participant's attributes were changed." },
  "participant.delete": { resource: "deleted", summary: "A participant was removed from a party." },
  "participant.sign": { resource: "participant", summary: "A participant signed through their signing link." },
  "participant.decline": { resource: "participant", summary: "A participant declined through their signing link." },
  "participant.invitation_send": { resource: "participant", summary: "A participant's invitation was queued again, with a new signing link (the old one no longer works)." },
  "participant.delegate": { resource: "participant", summary: "A signatory handed their signature on (Oneflow's `participant:delegate`): the participant (the delegator) no longer signs and their link is dead; its `delegated_to_id` is the new participant who signs instead (`after.delegate_name`, `after.delegate_email`)." },
  "participant.two_step_lock": { resource: "participant", summary: "Too many wrong e-mailed codes locked a participant's signing link; sending the invitation again unlocks." },
  "participant.delivery_failure": { resource: "participant", summary: "A participant's invitation could not be delivered: the mail server refused it, or every retry failed; the reason is in `_private_ownerside.delivery_failure`." },
  "data_field.update": { resource: "data_field", summary: "A data field's value was changed." },
} as const satisfies Record<string, { resource: "contract" | "party" | "participant" | "data_field" | "deleted"; summary: string; carries?: readonly string[] }>;

export type TWebhookEventType = keyof typeof WEBHOOK_EVENT_TYPES;
export const WEBHOOK_EVENT_TYPE_NAMES = Object.keys(WEBHOOK_EVENT_TYPES) as [TWebhookEventType, ...TWebhookEventType[]];

export function isWebhookEventType(action: string): action is TWebhookEventType {
  return Object.hasOwn(WEBHOOK_EVENT_TYPES, action);
}

/** What an event type's body carries beside `data`: values of its audit event's `after` (e.g. a withdrawal's reason). */
export function carriedFields(type: TWebhookEventType): readonly string[] {
  const entry = WEBHOOK_EVENT_TYPES[type];
  return "carries" in entry ? entry.carries : [];
}

/** Those values of one event, as text; `""` where the audit event recorded none. */
export function carriedValues(action: string, after: unknown): Record<string, string> {
  if (!isWebhookEventType(action)) return {};
  const recorded = after && typeof after === "object" ? (after as Record<string, unknown>) : {};
  return Object.fromEntries(carriedFields(action).map((field) => [field, typeof recorded[field] === "string" ? recorded[field] : ""]));
}

// --- Retries ---------------------------------------------------------------------------------------

const SECOND = 1_000;
const HOUR = 60 * 60 * SECOND;

/** A delivery still failing this long after its first attempt is given up (failed). */
export const GIVE_UP_AFTER_MS = 24 * HOUR;
/** A subscription whose every attempt failed for this long is paused. */
export const PAUSE_AFTER_FAILING_MS = 3 * 24 * HOUR;
/** …or when this many deliveries in a row were given up. */
export const PAUSE_AFTER_FAILED_DELIVERIES = 50;
/** A claimed delivery not finished by then is someone else's to send (a crashed dispatcher's). */
export const DELIVERY_TIMEOUT_MS = 10 * SECOND;
export const LEASE_MS = 60 * SECOND;

/**
 * When to try again after `attempts` failed attempts (lib/domain/retry.ts), or null to give up.
 * `scale` shrinks every delay and window (WEBHOOK_RETRY_SCALE, for tests).
 */
export function nextRetryDelay(attempts: number, { firstAttemptAt, now, scale = 1, random = Math.random() }: { firstAttemptAt: Date; now: Date; scale?: number; random?: number }): number | null {
  const delay = backoffDelay(attempts, { scale, random });
  if (now.getTime() + delay - firstAttemptAt.getTime() > GIVE_UP_AFTER_MS * scale) return null;
  return delay;
}

// --- Callback URLs and addresses (SSRF) --------------------------------------------------------------

/** Why a callback URL is refused, or null when its form is acceptable (the addresses are checked apart). */
export function callbackUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "must be an absolute http:// or https:// URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be an http:// or https:// URL";
  if (url.username || url.password) return "must not contain a user name or password";
  if (!url.hostname) return "must name a host";
  if (url.hash) return "must not contain a fragment (#…)";
  return null;
}

function ipv4ToInt(address: string): number {
  return address.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

const V4_BLOCKED: [string, number][] = [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services live here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated)
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

function isPublicIpv4(address: string): boolean {
  const n = ipv4ToInt(address);
  return !V4_BLOCKED.some(([base, bits]) => {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return ((n & mask) >>> 0) === ((ipv4ToInt(base) & mask) >>> 0);
  });
}

/** The 8 groups of an IPv6 address as numbers (expands `::` and a trailing dotted IPv4). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const n = ipv4ToInt(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parse = (s: string) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const h = parse(head);
  const t = tail === undefined ? [] : parse(tail);
  const fill = tail === undefined ? [] : new Array<number>(8 - h.length - t.length).fill(0);
  return [...h, ...fill, ...t];
}

function isPublicIpv6(address: string): boolean {
  const g = ipv6Groups(address);
  if (g.length !== 8) return false;
  const [g0 = 0, g1 = 0, , , g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embeddedV4 = `${g6 >>> 8}.${g6 & 0xff}.${g7 >>> 8}.${g7 & 0xff}`;
  if (g.every((x) => x === 0)) return false; // :: unspecified
  if (g.slice(0, 7).every((x) => x === 0) && g7 === 1) return false; // ::1 loopback
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): judged as the IPv4 address.
  if (g.slice(0, 5).every((x) => x === 0) && (g5 === 0xffff || g5 === 0)) return isPublicIpv4(embeddedV4);
  // IPv4/IPv6 translation (64:ff9b::/96) reaches the embedded IPv4 address.
  if (g0 === 0x64 && g1 === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return isPublicIpv4(embeddedV4);
  // 6to4 (2002::/16) embeds an IPv4 address in groups 1-2.
  if (g0 === 0x2002) return isPublicIpv4(`${g1 >>> 8}.${g1 & 0xff}.${(g[2] ?? 0) >>> 8}.${(g[2] ?? 0) & 0xff}`);
  if ((g0 & 0xfe00) === 0xfc00) return false; // fc00::/7 unique local
  if ((g0 & 0xffc0) === 0xfe80) return false; // fe80::/10 link-local
  if ((g0 & 0xffc0) === 0xfec0) return false; // fec0::/10 site-local (deprecated)
  if ((g0 & 0xff00) === 0xff00) return false; // ff00::/8 multicast
  if (g0 === 0x2001 && g1 === 0x0db8) return false; // documentation
  if (g0 === 0x0100 && g.slice(1, 4).every((x) => x === 0)) return false; // 100::/64 discard
  if (g0 === 0x2001 && g1 < 0x0200) return false; // 2001::/23 IETF protocol assignments (Teredo, ORCHID, …)
  return g0 >= 0x2000 && g0 <= 0x3fff; // only global unicast (2000::/3) is public
}

/** Whether a webhook may be sent to this address: public unicast only (no loopback, private, link-local, CGNAT, multicast, …). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isPublicIpv4(address);
  if (family === 6) return isPublicIpv6(address);
  return false;
}
