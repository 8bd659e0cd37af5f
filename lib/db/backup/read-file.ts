// A backup file's bytes, gunzipped: refuses what is not gzip, or whose compressed data is damaged or
// cut short, in one sentence (BackupRefusal).
import { once } from "node:events";
import { createGunzip } from "node:zlib";
import { BackupRefusal } from "./format.ts";

export async function* gunzipBackup(source: AsyncIterable<Buffer> & { destroy?: () => void }): AsyncGenerator<Buffer> {
  const gunzip = createGunzip();
  void (async () => {
    let head = Buffer.alloc(0);
    let checked = false;
    try {
      for await (const piece of source) {
        let chunk = piece;
        if (!checked) {
          head = Buffer.concat([head, chunk]);
          if (head.length < 2) continue;
          if (head[0] !== 0x1f || head[1] !== 0x8b) throw new BackupRefusal("This file is not a backup of this app (it is not gzip'd).");
          checked = true;
          chunk = head;
        }
        if (!gunzip.write(chunk)) await once(gunzip, "drain");
      }
      if (!checked) throw new BackupRefusal("This file is not a backup of this app (it is empty).");
      gunzip.end();
    } catch (error) {
      gunzip.destroy(error as Error);
    }
  })();
  try {
    for await (const out of gunzip as AsyncIterable<Buffer>) yield out;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (code === "Z_BUF_ERROR") throw new BackupRefusal("This backup is truncated: its compressed data ends early.");
    if (code.startsWith("Z_")) throw new BackupRefusal("This file is not a backup of this app, or it is damaged (its compressed data is corrupt).");
    throw error;
  } finally {
    gunzip.destroy();
    source.destroy?.();
  }
}
