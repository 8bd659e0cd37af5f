// The browser side of our own routes (/v1 and the web app's /api): same-origin fetch with the
// session cookie, JSON in and out, and the API's error body turned into one error type.

/** A refused call, carrying the API's error body (status, error_code, parameter_problems). */
export class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly parameterProblems: Record<string, string[]> = {},
    readonly errorCode?: number,
  ) {
    super(message);
  }
}

export async function fetchJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  return (await fetchTaggedJson<T>(path, init)).data;
}

/** `fetchJson`'s answer with its `ETag` (null when none): the version a later change names in `If-Match`. */
export async function fetchTaggedJson<T>(path: string, init: RequestInit = {}): Promise<{ data: T; etag: string | null }> {
  let res: Response;
  try {
    res = await fetch(path, {
      ...init,
      credentials: "same-origin",
      headers: { accept: "application/json", ...(init.body && !(init.body instanceof FormData) ? { "content-type": "application/json" } : {}), ...init.headers },
    });
  } catch {
    throw new RequestError(0, "Could not reach the server. Check your connection.");
  }
  const body = (await res.json().catch(() => null)) as
    | (T & { detail?: string; error_code?: number; parameter_problems?: Record<string, string[]> })
    | null;
  if (!res.ok) {
    throw new RequestError(res.status, body?.detail ?? `The server answered ${res.status}.`, body?.parameter_problems, body?.error_code);
  }
  return { data: body as T, etag: res.headers.get("etag") };
}
