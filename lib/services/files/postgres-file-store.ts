// The file store in PostgreSQL (embedded and server alike): a file's bytes in `file_chunks` rows of
// CHUNK_BYTES, written in the caller's transaction and read one chunk per query, so a download
// holds one chunk in memory at a time. Deleting the `contract_files` row deletes its chunks.
import type { PrismaClient, Tx } from "@/lib/db";
import type { TFileStore } from "./file-store-interface";

export const CHUNK_BYTES = 256 * 1024;

export const postgresFileStore: TFileStore = {
  async put(db, key, bytes) {
    // An empty file is one empty chunk, so every stored file has rows. Eight chunks (2 MiB) a
    // statement keep each statement's parameters small.
    const count = Math.max(1, Math.ceil(bytes.length / CHUNK_BYTES));
    for (let first = 0; first < count; first += 8) {
      const rows = [];
      for (let seq = first; seq < Math.min(count, first + 8); seq++) {
        rows.push({ storageKey: key, seq, data: Buffer.from(bytes.subarray(seq * CHUNK_BYTES, (seq + 1) * CHUNK_BYTES)) as Uint8Array<ArrayBuffer> });
      }
      await db.fileChunk.createMany({ data: rows });
    }
  },

  stream(db, key) {
    let seq = 0;
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        const chunk = await readChunk(db, key, seq++);
        if (chunk === null) controller.close();
        else if (chunk.length > 0) controller.enqueue(chunk);
      },
    });
  },

  async remove(db, key) {
    await db.fileChunk.deleteMany({ where: { storageKey: key } });
  },

  async read(db, key) {
    const parts: Uint8Array[] = [];
    for (let seq = 0; ; seq++) {
      const chunk = await readChunk(db, key, seq);
      if (chunk === null) break;
      parts.push(chunk);
    }
    return Buffer.concat(parts);
  },
};

async function readChunk(db: PrismaClient | Tx, key: string, seq: number): Promise<Uint8Array | null> {
  const row = await db.fileChunk.findUnique({ where: { storageKey_seq: { storageKey: key, seq } }, select: { data: true } });
  return row ? new Uint8Array(row.data) : null;
}
