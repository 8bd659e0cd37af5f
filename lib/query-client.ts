import { defaultShouldDehydrateQuery, isServer, QueryClient } from "@tanstack/react-query";

/** A 4xx will not go away by asking again; network errors and 5xx may. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === "number" && status >= 400 && status < 500) return false;
  return failureCount < 2;
}

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Above zero, so data prefetched on the server is not fetched again right after hydration.
        staleTime: 30_000,
        retry: shouldRetry,
      },
      mutations: { retry: false },
      dehydrate: {
        // Also hand pending server prefetches to the client (streaming).
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
    },
  });
}

let browserQueryClient: QueryClient | undefined;

/**
 * The QueryClient to use: a new one per request on the server (never shared between users), one
 * for the whole page in the browser (kept across re-renders and suspense).
 */
export function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  return (browserQueryClient ??= makeQueryClient());
}
