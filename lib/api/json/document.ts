// The contract's text's entity tag (RFC 9110 8.8.3): the SHA-256 of its `body` as stored
// (lib/services/contracts/body-digest.ts), so it changes whenever the text does. It covers the text
// the PUT replaces, not what the document fills in from data fields and parties. Strong, because
// `If-Match` compares strongly.
import { ifMatchVersions } from "@/lib/api/response";
import { DomainError } from "@/lib/domain/errors";
import { StaleContractTextError } from "@/lib/services/contracts/update-contract-body";

/** The ETag of contract `contractId`'s text at `version` (`bodyDigest(body).sha256`): GET and PUT …/document answer it. */
export function documentEtag(contractId: number, version: string): string {
  return `"d${contractId}-${version}"`;
}

/**
 * PUT …/document: `If-Match` → the versions of the text the change may apply to, then the change
 * (`update`, given them). A stale version is the 412 with the text's current ETag, so the client can
 * fetch it again.
 */
export async function documentUpdate(
  { contractId, ifMatch }: { contractId: number; ifMatch: string | null },
  update: (expectedVersions: readonly string[] | undefined) => Promise<void>,
): Promise<void> {
  try {
    await update(ifMatchVersions(ifMatch, `"d${contractId}-`, /^[0-9a-f]{64}$/));
  } catch (error) {
    if (!(error instanceof StaleContractTextError)) throw error;
    throw new DomainError(error.key, error.message, { headers: { ETag: documentEtag(contractId, error.current) } });
  }
}
