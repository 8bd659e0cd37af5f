import type { Tx } from "@/lib/db";
import { DomainError } from "@/lib/domain/errors";
import { findSigningLink } from "@/lib/services/signing/find-signing-link";

/** Whether the link opens a page: a well-formed token of a participant whose contract is pending. Counts nothing. */
export async function isLiveSigningLink({ db, token }: { db: Tx; token: string }): Promise<boolean> {
  try {
    await findSigningLink(db, token);
    return true;
  } catch (error) {
    if (error instanceof DomainError && error.key === "resource_not_found") return false;
    throw error;
  }
}
