"use client";

import { useEffect, useRef, useState } from "react";
import type { TCreateApiTokenResponse } from "@/lib/schemas/api-token";

async function copyText(text: string, fallbackInput: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API (e.g. plain http on a LAN address): select the text for a manual copy.
    fallbackInput?.select();
    return false;
  }
}

/** The new token, shown this once, with what to do with it. */
export function NewTokenPanel({ created, onDone }: { created: TCreateApiTokenResponse; onDone: () => void }) {
  const panelRef = useRef<HTMLElement>(null);
  const tokenRef = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState("");
  useEffect(() => {
    panelRef.current?.focus();
  }, []);

  // Only ever rendered in the browser (after a create), so the page's own origin is at hand.
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  // /v1/workspaces, not /v1/ping: ping answers without a token, so it would prove nothing.
  const curl = `curl -H "x-service-api-token: ${created.token}" ${origin}/v1/workspaces`;

  async function copy(what: "token" | "command") {
    const ok = await copyText(what === "token" ? created.token : curl, what === "token" ? tokenRef.current : null);
    setStatus(ok ? (what === "token" ? "Token copied." : "Command copied.") : "Copying is not available here: the token is selected, copy it with your keyboard.");
  }

  return (
    <section
      ref={panelRef}
      tabIndex={-1}
      aria-labelledby="new-token-title"
      className="mt-6 rounded-lg border border-emerald-300 bg-emerald-50 p-4"
    >
      <h2 id="new-token-title" className="text-base font-semibold text-emerald-900">
        Token “{created.name}” created: copy it now
      </h2>
      <p className="mt-1 text-sm text-emerald-900">It will not be shown again. Store it where the system that uses it keeps its secrets.</p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <label htmlFor="new-token-value" className="sr-only">
          New API token
        </label>
        <input
          id="new-token-value"
          ref={tokenRef}
          readOnly
          value={created.token}
          onFocus={(e) => e.currentTarget.select()}
          className="min-w-0 flex-1 rounded-md border border-emerald-300 bg-white px-3 py-2 font-mono text-sm"
        />
        <button
          type="button"
          onClick={() => copy("token")}
          className="rounded-md border border-emerald-400 bg-white px-3 py-2 text-sm font-medium text-emerald-900 hover:bg-emerald-100"
        >
          Copy token
        </button>
      </div>
      <p className="mt-4 text-sm font-medium text-emerald-900">Try it:</p>
      <div className="mt-1 flex flex-wrap items-start gap-2">
        <pre className="min-w-0 flex-1 overflow-x-auto rounded-md bg-slate-900 px-3 py-2 text-xs text-slate-100">
          <code>{curl}</code>
        </pre>
        <button
          type="button"
          onClick={() => copy("command")}
          className="rounded-md border border-emerald-400 bg-white px-3 py-2 text-sm font-medium text-emerald-900 hover:bg-emerald-100"
        >
          Copy command
        </button>
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm text-emerald-900">
        {status}
      </p>
      <button
        type="button"
        onClick={onDone}
        className="mt-2 rounded-md bg-emerald-700 px-4 py-2 text-sm font-semibold text-white hover:bg-emerald-800"
      >
        I have copied it
      </button>
    </section>
  );
}
