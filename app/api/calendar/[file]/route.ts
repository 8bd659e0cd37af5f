import { loadUserActor } from "@/lib/api/auth";
import { calendarFeedIcs } from "@/lib/api/calendar-feed-ics";
import { otherMethods, withApi } from "@/lib/api/endpoint";
import { ApiError } from "@/lib/api/errors";
import { countHit } from "@/lib/db/count-hit";
import { CALENDAR_FEED_FETCHES_PER_MINUTE, CALENDAR_FEED_FILE } from "@/lib/domain/calendar-feed";
import { findCalendarFeedOwner } from "@/lib/services/calendar-feed/find-calendar-feed-owner";
import { listCalendarFeedEvents } from "@/lib/services/calendar-feed/list-calendar-feed-events";

// A user's private calendar feed (docs/security.md "The calendar feed"): no session, no token
// header; the secret in the path is the credential (kept out of logs: redactPath). Calendar
// clients (Outlook, Google Calendar, Apple Calendar) subscribe to this URL.
const route = "/api/calendar/{token}.ics";

export const GET = withApi(
  async ({ prisma, params, origin }) => {
    const token = CALENDAR_FEED_FILE.exec(params.file ?? "")?.[1];
    // Unknown, revoked or renewed secret, or an inactive user: the same 404, nothing else said.
    const owner = token ? await findCalendarFeedOwner({ db: prisma, token }) : null;
    const actor = owner ? await loadUserActor(prisma, owner, { via: "session", apiTokenId: null }) : null;
    if (!actor) throw new ApiError("not_found", "No such calendar feed.");
    // A leaked URL polled in a loop costs one counter row, not a read of every contract per request.
    const now = Date.now();
    const hit = await countHit(prisma, { key: `calendar-feed:${actor.userId}`, stamp: BigInt(now), resetAtOrBefore: BigInt(now - 60_000), restampBelow: 0 });
    if (hit && hit.count > CALENDAR_FEED_FETCHES_PER_MINUTE) {
      throw new ApiError("rate_limited", "This calendar feed was fetched too often; try again in a minute.", { headers: { "Retry-After": "60" } });
    }
    const today = new Date(now).toISOString().slice(0, 10);
    // The contracts the owner may see now: their workspaces are read at every fetch.
    const events = await listCalendarFeedEvents({ db: prisma, actor, today });
    const body = calendarFeedIcs(events, { origin, ownerName: actor.name, now: new Date(now) });
    return new Response(body, {
      headers: {
        "Content-Type": "text/calendar; charset=utf-8",
        "Content-Disposition": 'inline; filename="contracts.ics"',
        // Private to its owner, and revocable: no shared cache keeps it; clients fetch it afresh.
        "Cache-Control": "private, no-cache, max-age=0",
        "X-Robots-Tag": "noindex, nofollow",
      },
    });
  },
  { route, auth: false },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
