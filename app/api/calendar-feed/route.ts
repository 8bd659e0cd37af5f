import { otherMethods, withApi } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { assertSameOrigin } from "@/lib/api/auth";
import { requireUserActor } from "@/lib/api/web-guards";
import { getCalendarFeed } from "@/lib/services/calendar-feed/get-calendar-feed";
import { renewCalendarFeed } from "@/lib/services/calendar-feed/renew-calendar-feed";
import { revokeCalendarFeed } from "@/lib/services/calendar-feed/revoke-calendar-feed";

// The signed-in user's own calendar feed (docs/security.md "The calendar feed"): session only,
// never an API token (`auth: false` = no token auth); changes only from this app's pages.
const route = "/api/calendar-feed";

/** Whether the user has a feed (its URL was shown once, when made). */
export const GET = withApi(
  async ({ req, prisma }) => {
    const actor = await requireUserActor(req, prisma);
    return json(await getCalendarFeed({ db: prisma, actor }));
  },
  { route, auth: false },
);

/** A new feed URL, replacing any earlier one (which then answers 404); shown this once. */
export const POST = withApi(
  async ({ req, prisma, origin, requestId }) => {
    assertSameOrigin(req);
    const actor = await requireUserActor(req, prisma);
    const { token } = await renewCalendarFeed({ db: prisma, actor, requestId });
    return json({ active: true, url: `${origin}/api/calendar/${token}.ics` }, { status: 201 });
  },
  { route, auth: false },
);

/** Ends the feed: its URL answers 404 from now on. */
export const DELETE = withApi(
  async ({ req, prisma, requestId }) => {
    assertSameOrigin(req);
    const actor = await requireUserActor(req, prisma);
    await revokeCalendarFeed({ db: prisma, actor, requestId });
    return new Response(null, { status: 204 });
  },
  { route, auth: false },
);

export const { PUT, PATCH } = otherMethods(["GET", "POST", "DELETE"], route);
