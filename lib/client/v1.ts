// Typed reads of the /v1 API for the staff pages, as TanStack Query options. The pages call the same
// routes external systems use (with the session cookie), so what a page shows is what the API answers.
// Only types come from lib/schemas here: importing any value from it would put zod and every schema
// (~90 KB gzipped) into each table page's bundle. Constants repeated here are typed as the schema
// module's own literal types, so the two cannot drift apart without a type error.

import { queryOptions } from "@tanstack/react-query";
import type { TPaginated } from "@/lib/schemas/pagination";
import type {
  TContract,
  TContractList,
  TContractListQuery,
  TEmailMessage,
  TTemplate,
  TTemplateList,
  TTemplateType,
  TTemplateTypeList,
  TUserList,
  TWorkspace,
  TWorkspaceList,
} from "@/lib/schemas";
import type { z } from "zod";
import type { TSelfParsedPathParam } from "@/lib/schemas/common";
import type { TEndpoints } from "@/lib/schemas/endpoints";
import { ENDPOINT_ROUTES } from "./endpoints.generated";
import { fetchJson } from "./fetch-json";

export type { TPaginated };

/** A query-string value; `undefined`, `null` and `""` are left out (the API's default applies). */
export type TQueryValue = string | number | boolean | null | undefined;

/** A page of a collection: `limit` 1–100 and `offset` 0–19900, as the API takes them. */
export type TPageParams = { limit?: number; offset?: number };

export type TContractListParams = TPageParams &
  Partial<Pick<TContractListQuery, "workspace_id" | "state" | "sort" | "q" | "matches" | "updated_before" | "expires_before" | "state_updated_after" | "delivery_failed" | "awaiting_me" | TContractLifecycleParam>>;
/** The lifecycle's filters of the contracts list (docs/api.md "The contract's lifecycle in lists"). */
export type TContractLifecycleParam = "lifecycle_state" | "ends_after" | "ends_before" | "notice_deadline_after" | "notice_deadline_before" | "renewed_after";
export type TTemplateListParams = TPageParams & { workspace_id?: number };
export type TEmailMessageListParams = TPageParams & { contract_id?: number; status?: TEmailMessage["status"] };

/** `?a=1&b=x` from the values that are set, in the order given; `""` when none is. */
export function queryString(params: Readonly<Record<string, TQueryValue>>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

type TFetchOptions = { signal?: AbortSignal };

// --- Endpoints, as declared in lib/schemas/endpoints.ts (types only: no schema enters the bundle) ----

export type TEndpointId = keyof TEndpoints;
/** Ids are numbers; a parameter with a form of its own (`selfParsedPathParam`, e.g. `c::{custom_id}`) takes a string too. */
type TPathParams<K extends TEndpointId> = TEndpoints[K] extends { params: z.ZodObject }
  ? {
      [P in keyof TEndpoints[K]["params"]["shape"]]: TEndpoints[K]["params"]["shape"][P] extends TSelfParsedPathParam ? number | string : number;
    }
  : Record<string, never>;
/** What the endpoint answers with on success. */
export type TResponseOf<K extends TEndpointId> = TEndpoints[K] extends { response: z.ZodType } ? z.output<TEndpoints[K]["response"]> : undefined;

/** The endpoint's URL path with its path parameters filled in (each percent-encoded as one segment). */
export function pathOf<K extends TEndpointId>(id: K, params: TPathParams<K>): string {
  return ENDPOINT_ROUTES[id].path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String((params as Record<string, number | string>)[name])),
  );
}

/** The endpoint's method, as declared. */
export const methodOf = (id: TEndpointId): string => ENDPOINT_ROUTES[id].method;

const get = <T>(path: string, params: Readonly<Record<string, TQueryValue>> = {}, { signal }: TFetchOptions = {}) =>
  fetchJson<T>(`${path}${queryString(params)}`, { signal });

// --- Fetchers ---------------------------------------------------------------------------------------

export const listContracts = (params: TContractListParams = {}, options?: TFetchOptions) =>
  get<TResponseOf<"listContracts">>(pathOf("listContracts", {}), params, options);
export const getContract = (id: number, options?: TFetchOptions) =>
  get<TResponseOf<"getContract">>(pathOf("getContract", { contract_id: id }), {}, options);
export const listWorkspaces = (params: TPageParams = {}, options?: TFetchOptions) =>
  get<TResponseOf<"listWorkspaces">>(pathOf("listWorkspaces", {}), params, options);
export const listUsers = (params: TPageParams = {}, options?: TFetchOptions) =>
  get<TResponseOf<"listUsers">>(pathOf("listUsers", {}), params, options);
export const listTemplates = (params: TTemplateListParams = {}, options?: TFetchOptions) =>
  get<TResponseOf<"listTemplates">>(pathOf("listTemplates", {}), params, options);
export const getTemplate = (id: number, options?: TFetchOptions) =>
  get<TResponseOf<"getTemplate">>(pathOf("getTemplate", { template_id: id }), {}, options);
export const listTemplateTypes = (params: TPageParams = {}, options?: TFetchOptions) =>
  get<TResponseOf<"listTemplateTypes">>(pathOf("listTemplateTypes", {}), params, options);
export const getTemplateType = (id: number, options?: TFetchOptions) =>
  get<TResponseOf<"getTemplateType">>(pathOf("getTemplateType", { template_type_id: id }), {}, options);
export const listEmailMessages = (params: TEmailMessageListParams = {}, options?: TFetchOptions) =>
  get<TResponseOf<"listEmailMessages">>(pathOf("listEmailMessages", {}), params, options);
/** The OpenAPI document; public, and large, so only the API reference page asks for it. */
export const getOpenApiDocument = (options?: TFetchOptions) => get<TOpenApiDocument>(pathOf("getOpenApiDocument", {}), {}, options);

/** Largest page the API serves, and the last offset it accepts (docs/api.md "Pagination"). */
export const API_MAX_LIMIT: typeof import("@/lib/schemas/pagination").MAX_LIMIT = 100;
export const API_MAX_OFFSET: typeof import("@/lib/schemas/pagination").MAX_OFFSET = 19_900;

/**
 * Every item of a small collection (workspaces for a filter, say), one full page at a time. Stops
 * at the API's last offset, so at most 20,000 items: callers use it only for short lookup lists.
 */
export async function listAll<T>(
  fetchPage: (params: Required<TPageParams>, options?: TFetchOptions) => Promise<TPaginated<T>>,
  options?: TFetchOptions,
): Promise<T[]> {
  const items: T[] = [];
  for (let offset = 0; offset <= API_MAX_OFFSET; offset += API_MAX_LIMIT) {
    const page = await fetchPage({ limit: API_MAX_LIMIT, offset }, options);
    items.push(...page.data);
    if (page._links.next.href === null) break;
  }
  return items;
}

/**
 * The `limit` and `offset` a list answer was computed with, read from its `_links.self` (which always
 * carries the effective values). Lets a page describe the rows it shows, even while it keeps showing
 * the previous page's rows as the next one loads.
 */
export function pageOf(list: Pick<TPaginated<unknown>, "_links">): { limit: number; offset: number } {
  const params = new URL(list._links.self.href).searchParams;
  return { limit: Number(params.get("limit") ?? API_MAX_LIMIT), offset: Number(params.get("offset") ?? 0) };
}

// --- Query options ----------------------------------------------------------------------------------

/**
 * Query keys start with "v1" and the collection, so one `invalidateQueries({ queryKey: ["v1",
 * "contracts"] })` after a write refreshes every list and detail of that collection.
 */
export const v1Queries = {
  contracts: (params: TContractListParams = {}) =>
    queryOptions({ queryKey: ["v1", "contracts", "list", params], queryFn: ({ signal }) => listContracts(params, { signal }) }),
  contract: (id: number) =>
    queryOptions({ queryKey: ["v1", "contracts", "detail", id], queryFn: ({ signal }) => getContract(id, { signal }) }),
  workspaces: (params: TPageParams = {}) =>
    queryOptions({ queryKey: ["v1", "workspaces", "list", params], queryFn: ({ signal }) => listWorkspaces(params, { signal }) }),
  /** Every workspace the user can see (for filters and names); they change rarely. */
  allWorkspaces: () =>
    queryOptions({
      queryKey: ["v1", "workspaces", "all"],
      queryFn: ({ signal }): Promise<TWorkspace[]> => listAll(listWorkspaces, { signal }),
      staleTime: 5 * 60_000,
    }),
  users: (params: TPageParams = {}) =>
    queryOptions({ queryKey: ["v1", "users", "list", params], queryFn: ({ signal }) => listUsers(params, { signal }) }),
  templates: (params: TTemplateListParams = {}) =>
    queryOptions({ queryKey: ["v1", "templates", "list", params], queryFn: ({ signal }) => listTemplates(params, { signal }) }),
  template: (id: number) =>
    queryOptions({ queryKey: ["v1", "templates", "detail", id], queryFn: ({ signal }) => getTemplate(id, { signal }) }),
  templateTypes: (params: TPageParams = {}) =>
    queryOptions({
      queryKey: ["v1", "template_types", "list", params],
      queryFn: ({ signal }) => listTemplateTypes(params, { signal }),
    }),
  /** The Outbox (administrators only). */
  emailMessages: (params: TEmailMessageListParams = {}) =>
    queryOptions({ queryKey: ["v1", "email_messages", "list", params], queryFn: ({ signal }) => listEmailMessages(params, { signal }) }),
  openApi: () =>
    queryOptions({
      queryKey: ["v1", "openapi"],
      queryFn: ({ signal }) => getOpenApiDocument({ signal }),
      // Generated from the code: it changes only with a deploy.
      staleTime: Number.POSITIVE_INFINITY,
    }),
};

// --- The OpenAPI document (rendered as it is by the reference page's Swagger UI) -------------------

export type TOpenApiDocument = {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, unknown>;
  [key: string]: unknown;
};
