// Where a file's bytes live, behind one small interface (docs/documents.md), so
// that the rules (lib/services/files/*) never know the backend. PostgreSQL is the one backend today
// (postgres-file-store.ts); an S3-compatible store would implement the same four calls.
import type { TFileStore } from "./file-store-interface";
import { postgresFileStore } from "./postgres-file-store";

export type { TFileStore } from "./file-store-interface";

/** The deployment's file store. */
export function fileStore(): TFileStore {
  return postgresFileStore;
}
