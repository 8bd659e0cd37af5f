"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorState, LoadingState } from "@/components/states";
import { fetchJson } from "@/lib/client/fetch-json";

const feedKey = ["web", "calendar-feed"] as const;
const buttonClass = "rounded-md px-4 py-2 text-sm font-semibold disabled:opacity-60";

export function CalendarFeedManager() {
  const client = useQueryClient();
  const feed = useQuery({ queryKey: feedKey, queryFn: () => fetchJson<{ active: boolean }>("/api/calendar-feed") });
  // The new address, shown until the page is left (only its hash is kept).
  const [url, setUrl] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const renew = useMutation({
    mutationFn: () => fetchJson<{ active: true; url: string }>("/api/calendar-feed", { method: "POST", body: "{}" }),
    onSuccess: (answer) => {
      setUrl(answer.url);
      setCopied(false);
      client.setQueryData(feedKey, { active: true });
    },
  });
  const revoke = useMutation({
    mutationFn: () => fetchJson<void>("/api/calendar-feed", { method: "DELETE" }),
    onSuccess: () => {
      setUrl(null);
      client.setQueryData(feedKey, { active: false });
    },
  });

  if (feed.isPending) return <LoadingState label="Loading your calendar feed…" />;
  if (feed.isError) return <ErrorState title="Your calendar feed could not be loaded" error={feed.error} onRetry={() => void feed.refetch()} />;
  const active = feed.data.active;
  const busy = renew.isPending || revoke.isPending;
  return (
    <section aria-labelledby="calendar-feed-status" className="mt-6 space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="calendar-feed-status" className="text-sm font-medium text-slate-800">
        {active ? "Your calendar feed is on." : "You have no calendar feed."}
      </h2>
      {url ? (
        <div className="space-y-2">
          <label htmlFor="calendar-feed-url" className="block text-sm font-medium text-slate-800">
            Your feed&apos;s address (shown this once)
          </label>
          <input id="calendar-feed-url" readOnly value={url} onFocus={(e) => e.currentTarget.select()} className="block w-full rounded-md border border-slate-300 px-2 py-1.5 font-mono text-sm" />
          <button
            type="button"
            className={`${buttonClass} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50`}
            onClick={() => navigator.clipboard?.writeText(url).then(() => setCopied(true), () => setCopied(false))}
          >
            Copy address
          </button>
          <p role="status" className="text-sm text-emerald-800">
            {copied ? "Copied." : ""}
          </p>
        </div>
      ) : active ? (
        <p className="text-sm text-slate-600">Its address was shown when it was made. Lost it? Make a new address: the old one stops working.</p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <button type="button" disabled={busy} onClick={() => renew.mutate()} className={`${buttonClass} bg-blue-700 text-white hover:bg-blue-800`}>
          {active ? "Make a new address" : "Make my calendar feed"}
        </button>
        {active ? (
          <button type="button" disabled={busy} onClick={() => revoke.mutate()} className={`${buttonClass} border border-red-300 bg-white text-red-800 hover:bg-red-50`}>
            Turn the feed off
          </button>
        ) : null}
      </div>
      {renew.isError || revoke.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {(renew.error ?? revoke.error)?.message ?? "That did not work."} Try again.
        </p>
      ) : null}
    </section>
  );
}
