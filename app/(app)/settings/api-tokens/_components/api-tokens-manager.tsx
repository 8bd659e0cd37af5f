"use client";

import { useState } from "react";
import type { TCreateApiTokenResponse } from "@/lib/schemas/api-token";
import { CreateTokenForm } from "./create-token-form";
import { NewTokenPanel } from "./new-token-panel";
import { TokensTable } from "./tokens-table";

export function ApiTokensManager() {
  // The plain token lives only here, in memory, until the admin dismisses it.
  const [created, setCreated] = useState<TCreateApiTokenResponse | null>(null);
  return (
    <div className="mt-6">
      <CreateTokenForm onCreated={setCreated} />
      {created ? <NewTokenPanel key={created.id} created={created} onDone={() => setCreated(null)} /> : null}
      <TokensTable />
    </div>
  );
}
