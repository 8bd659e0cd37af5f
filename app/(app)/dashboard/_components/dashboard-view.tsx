"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { CalendarDate } from "@/components/calendar-date";
import { ErrorState, LoadingState } from "@/components/states";
import { fetchJson } from "@/lib/client/fetch-json";
import { pathOf, queryString } from "@/lib/client/v1";
import type { TDashboard } from "@/lib/schemas/dashboard";

type TTileKey = TDashboard["tiles"][number]["key"];

const TILE_WORDS: Record<TTileKey, { title: string; none: string }> = {
  awaiting_me: { title: "Waiting for your signature", none: "Nothing waits for your signature." },
  delivery_failed: { title: "Invitations not delivered", none: "Every invitation was delivered." },
  expiring: { title: "Signing period ends within 7 days", none: "No signing period ends this week." },
  declined: { title: "Declined in the last 30 days", none: "None declined this month." },
  untouched_drafts: { title: "Drafts untouched for 14 days", none: "No forgotten drafts." },
  notice_deadlines: { title: "Notice deadlines in the next 30 days", none: "No notice deadline in the next 30 days." },
  ending: { title: "Ending in the next 90 days", none: "No contract ends in the next 90 days." },
  renewed: { title: "Renewed this month", none: "None renewed this month." },
};

type TTileItem = NonNullable<TDashboard["tiles"][number]["items"]>[number];

/** What each lifecycle tile says of its contracts: the date it is about. */
const ITEM_DATE: Partial<Record<TTileKey, { words: string; of: (item: TTileItem) => string | null }>> = {
  notice_deadlines: { words: "notice by", of: (item) => item.notice_deadline },
  ending: { words: "ends", of: (item) => item.end_date },
  renewed: { words: "next notice by", of: (item) => item.notice_deadline },
};

export const dashboardQuery = {
  queryKey: ["v1", "dashboard"],
  queryFn: ({ signal }: { signal: AbortSignal }) => fetchJson<TDashboard>(pathOf("getDashboard", {}), { signal }),
};

export function DashboardView() {
  const dashboard = useQuery(dashboardQuery);
  if (dashboard.isPending) return <LoadingState label="Loading the dashboard…" />;
  if (dashboard.isError) return <ErrorState title="The dashboard could not be loaded" error={dashboard.error} onRetry={() => void dashboard.refetch()} />;
  const { tiles, delivery_failures } = dashboard.data;
  return (
    <div className="mt-6 space-y-8">
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="What needs attention">
        {tiles.map((tile) => (
          <li key={tile.key} className="rounded-lg border border-slate-200 bg-white p-4">
            <h2 className="text-sm font-medium text-slate-700">{TILE_WORDS[tile.key].title}</h2>
            {tile.count > 0 ? (
              <Link
                href={`/contracts${queryString(tile.query)}`}
                className="mt-2 block text-3xl font-semibold text-blue-700 underline-offset-4 hover:underline"
                aria-label={`${tile.count} ${tile.count === 1 ? "contract" : "contracts"}: ${TILE_WORDS[tile.key].title}`}
              >
                {tile.count}
              </Link>
            ) : (
              <p className="mt-2 text-sm text-slate-600">{TILE_WORDS[tile.key].none}</p>
            )}
            {tile.items && tile.items.length > 0 ? (
              <ul className="mt-3 space-y-1 text-sm" aria-label={`First of: ${TILE_WORDS[tile.key].title}`}>
                {tile.items.map((item) => {
                  const date = ITEM_DATE[tile.key]?.of(item) ?? null;
                  return (
                    <li key={item.id}>
                      <Link href={`/contracts/${item.id}`} className="font-medium text-blue-700 underline hover:text-blue-900">
                        {item.name}
                      </Link>
                      {date ? (
                        <span className="text-slate-600">
                          {" "}
                          — {ITEM_DATE[tile.key]!.words} <CalendarDate date={date} />
                        </span>
                      ) : null}
                    </li>
                  );
                })}
                {tile.count > tile.items.length ? (
                  <li>
                    <Link href={`/contracts${queryString(tile.query)}`} className="text-blue-700 underline hover:text-blue-900">
                      All {tile.count}
                    </Link>
                  </li>
                ) : null}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
      {delivery_failures.length > 0 ? (
        <section aria-labelledby="failed-deliveries">
          <h2 id="failed-deliveries" className="text-lg font-semibold text-slate-900">
            Invitations that could not be delivered
          </h2>
          <p className="mt-1 text-sm text-slate-600">Correct the address on the contract&apos;s page, or send the invitation again: either takes it off this list.</p>
          <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {delivery_failures.map((f) => (
              <li key={f.participant_id} className="px-4 py-3 text-sm">
                <p>
                  <span className="font-medium text-slate-900">{f.name}</span> &lt;{f.email}&gt; on{" "}
                  <Link href={`/contracts/${f.contract_id}#participant-${f.participant_id}`} className="font-medium text-blue-700 underline hover:text-blue-900">
                    {f.contract_name}
                  </Link>
                </p>
                <p className="mt-1 text-slate-600">The mail server said: {f.reason || "no reason given"}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
