import type { listErrorCodes } from "@/lib/domain/error-codes";
import { absoluteUrl } from "@/lib/http/links";
import type { TErrorCode } from "@/lib/schemas/error-code";

type TErrorCodeEntry = ReturnType<typeof listErrorCodes>[number];

export function errorCodePath(code: number): string {
  return `/v1/error_codes/${code}`;
}

/** The documentation of one code; its `self` is the `type` URL of the error bodies that carry it. */
export function serializeErrorCode(entry: TErrorCodeEntry, { origin }: { origin: string }): TErrorCode {
  return {
    error_code: entry.code,
    key: entry.key,
    status: entry.status,
    title: entry.title,
    description: entry.description,
    _links: { self: { href: absoluteUrl(origin, errorCodePath(entry.code)) } },
  } satisfies TErrorCode;
}
