import { fetchJson as call } from "@/lib/client/fetch-json";
import type { TApiToken, TCreateApiTokenRequest, TCreateApiTokenResponse } from "@/lib/schemas/api-token";

export { RequestError } from "@/lib/client/fetch-json";

export const apiTokensQueryKey = ["web", "api-tokens"] as const;

export const listApiTokens = () => call<{ data: TApiToken[] }>("/api/tokens").then((r) => r.data);

export const createApiToken = (input: TCreateApiTokenRequest) =>
  call<TCreateApiTokenResponse>("/api/tokens", { method: "POST", body: JSON.stringify(input) });

export const revokeApiToken = (id: number) => call<TApiToken>(`/api/tokens/${id}`, { method: "DELETE" });
