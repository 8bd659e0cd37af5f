"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { TApiToken } from "@/lib/schemas/api-token";
import { apiTokensQueryKey, listApiTokens, revokeApiToken } from "./api-tokens-client";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

function When({ iso }: { iso: string | null }) {
  if (!iso) return <span className="text-slate-500">Never</span>;
  return <time dateTime={iso}>{dateFormat.format(new Date(iso))}</time>;
}

const cell = "px-3 py-2 text-left align-middle";

export function TokensTable() {
  const tokens = useQuery({ queryKey: apiTokensQueryKey, queryFn: listApiTokens });
  const [revoking, setRevoking] = useState<TApiToken | null>(null);

  return (
    <section aria-labelledby="tokens-title" className="mt-8">
      <h2 id="tokens-title" className="text-base font-semibold text-slate-900">
        Tokens
      </h2>
      {tokens.isPending ? (
        <div aria-busy="true" className="mt-3 space-y-2">
          <p className="sr-only">Loading tokens…</p>
          {[0, 1, 2].map((i) => (
            <div key={i} className="h-9 animate-pulse rounded bg-slate-200" />
          ))}
        </div>
      ) : tokens.isError ? (
        <div role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          <p>Could not load the tokens: {tokens.error.message}</p>
          <button type="button" onClick={() => tokens.refetch()} className="mt-2 font-medium underline">
            Try again
          </button>
        </div>
      ) : tokens.data.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No API tokens yet. Create one above.</p>
      ) : (
        <div className="mt-3 overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
              <tr>
                <th scope="col" className={cell}>Name</th>
                <th scope="col" className={cell}>Prefix</th>
                <th scope="col" className={cell}>Created</th>
                <th scope="col" className={cell}>Last used</th>
                <th scope="col" className={cell}>Status</th>
                <th scope="col" className={cell}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {tokens.data.map((token) => (
                <tr key={token.id}>
                  <th scope="row" className={`${cell} font-medium text-slate-900`}>
                    {token.name}
                  </th>
                  <td className={`${cell} font-mono text-xs`}>{token.prefix}…</td>
                  <td className={cell}>
                    <When iso={token.created_time} />
                  </td>
                  <td className={cell}>
                    <When iso={token.last_used_time} />
                  </td>
                  <td className={cell}>
                    {token.revoked_time ? (
                      <span className="text-slate-600">
                        Revoked <When iso={token.revoked_time} />
                      </span>
                    ) : (
                      <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800">Active</span>
                    )}
                  </td>
                  <td className={`${cell} text-right`}>
                    {token.revoked_time ? null : (
                      <button
                        type="button"
                        onClick={() => setRevoking(token)}
                        className="rounded-md border border-red-300 px-2.5 py-1 text-xs font-medium text-red-700 hover:bg-red-50"
                      >
                        Revoke<span className="sr-only"> {token.name}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revoking ? <RevokeDialog token={revoking} onClose={() => setRevoking(null)} /> : null}
    </section>
  );
}

/** The confirm step before a revoke, as a modal dialog (focus stays inside; Escape cancels). */
function RevokeDialog({ token, onClose }: { token: TApiToken; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => revokeApiToken(token.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: apiTokensQueryKey });
      ref.current?.close();
    },
  });
  useEffect(() => {
    // (Removing the element on unmount closes it; no cleanup, which Strict Mode would run at once.)
    if (ref.current && !ref.current.open) ref.current.showModal();
  }, []);

  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby="revoke-title"
      aria-describedby="revoke-description"
      className="m-auto w-full max-w-md rounded-lg p-6 shadow-xl backdrop:bg-slate-900/40"
    >
      <h2 id="revoke-title" className="text-lg font-semibold text-slate-900">
        Revoke “{token.name}”?
      </h2>
      <p id="revoke-description" className="mt-2 text-sm text-slate-600">
        Systems using this token will be refused from now on. This cannot be undone; create a new token to restore access.
      </p>
      {revoke.isError ? (
        <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {revoke.error.message}
        </p>
      ) : null}
      <div className="mt-6 flex justify-end gap-3">
        <button
          type="button"
          autoFocus
          onClick={() => ref.current?.close()}
          className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
        >
          Cancel
        </button>
        <button
          type="button"
          onClick={() => revoke.mutate()}
          disabled={revoke.isPending}
          className="rounded-md bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60"
        >
          {revoke.isPending ? "Revoking…" : "Revoke token"}
        </button>
      </div>
    </dialog>
  );
}
