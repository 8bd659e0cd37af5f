import type { Metadata } from "next";
import { requireSessionUser } from "@/lib/auth/require-session";
import { CalendarFeedManager } from "./_components/calendar-feed-manager";

export const metadata: Metadata = { title: "Calendar feed" };

// Every signed-in user's own feed (docs/web-app.md "Calendar feed", docs/security.md "The calendar feed").
export default async function CalendarFeedPage() {
  await requireSessionUser({ next: "/settings/calendar-feed" });
  return (
    <div className="max-w-3xl">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Calendar feed</h1>
      <p className="mt-2 text-sm text-slate-600">
        Subscribe to the notice deadlines and end dates of the contracts you may see, in Outlook, Google Calendar or Apple
        Calendar (&quot;Add calendar from URL&quot; / &quot;From internet&quot;). The feed always shows what you may see when your
        calendar fetches it, from a month back to two years ahead. Its address is a secret: anyone who has it can read those
        dates, so it is shown only once; make a new one if it may have leaked, which stops the old one.
      </p>
      <CalendarFeedManager />
    </div>
  );
}
