import type { PrismaClient, Tx } from "@/lib/db";

/** What every file store backend does (lib/services/files/file-store.ts picks the deployment's). */
export interface TFileStore {
  /**
   * Stores the bytes under `key` (the `storage_key` of a `contract_files` row written first, in the
   * same transaction `db`): a backend that cannot join the transaction must leave nothing readable
   * when it rolls back.
   */
  put(db: Tx, key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes, read a chunk at a time as the consumer pulls (a download never holds the whole file). */
  stream(db: PrismaClient | Tx, key: string): ReadableStream<Uint8Array>;
  /** Deletes the bytes, in the transaction that deletes the file's row. */
  remove(db: Tx, key: string): Promise<void>;
  /** All the bytes at once: for what must read the whole file anyway (hashing, merging into a PDF). */
  read(db: PrismaClient | Tx, key: string): Promise<Uint8Array>;
}
