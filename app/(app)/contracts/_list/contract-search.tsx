"use client";

import { useEffect, useRef, useState } from "react";
import { SEARCH_QUERY_MAX_LENGTH } from "@/lib/schemas/limits";

/** How long typing must pause before the list follows it. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The name search: the list follows what is typed once typing pauses (or at once on Enter), through
 * `onSearch`, which writes it to the URL. A value the URL gets from elsewhere (Clear filters, Back)
 * replaces the box's text.
 */
export function ContractSearch({ q, onSearch }: { q: string | undefined; onSearch: (q: string | undefined) => void }) {
  const [text, setText] = useState(q ?? "");
  // The last value this box sent: a URL change equal to it is our own echo, not an outside change.
  const sent = useRef(q);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (q !== sent.current) {
      sent.current = q;
      clearTimeout(timer.current);
      setText(q ?? "");
    }
  }, [q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  function send(value: string) {
    clearTimeout(timer.current);
    const next = value.trim() || undefined;
    if (next === sent.current) return;
    sent.current = next;
    onSearch(next);
  }

  return (
    <div>
      <label htmlFor="filter-q" className="block text-sm font-medium text-slate-800">
        Search
      </label>
      <input
        id="filter-q"
        type="search"
        aria-describedby="filter-q-hint"
        value={text}
        maxLength={SEARCH_QUERY_MAX_LENGTH}
        autoComplete="off"
        onChange={(e) => {
          const value = e.currentTarget.value;
          setText(value);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => send(value), SEARCH_DEBOUNCE_MS);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter") send(e.currentTarget.value);
        }}
        className="mt-1 block w-64 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
      />
      <p id="filter-q-hint" className="mt-1 text-xs text-slate-600">
        Names, parties, people, e-mail addresses, field values and the text
      </p>
    </div>
  );
}
