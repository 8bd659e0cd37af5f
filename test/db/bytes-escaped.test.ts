import { afterAll, beforeAll, expect, test } from "vitest";
import { queryOne } from "@/lib/db/query";
import { authenticateSessionUser } from "@/lib/api/auth";
import { createUser } from "@/lib/db/seed/factories";
import { bytesFromEscaped, listCountOfEscaped, listHeadSql, listPreload, PIECE_BYTES, utf8BytesEscaped } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";

// Large JSON text leaves PostgreSQL as its UTF-8 bytes in bytea's escape format and reaches the
// client without becoming a JavaScript string (lib/db/sql.ts `utf8BytesEscaped`): every byte must come back as it was.
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

test("every byte value, as PostgreSQL escapes it, comes back exactly", async () => {
  const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  const bytes = Buffer.concat([all, all.reverse(), Buffer.from("\\\\\\ plain \\000 text \\")]);
  const row = await queryOne<{ e: string }>(db.prisma, Prisma.sql`SELECT encode(decode(${bytes.toString("hex")}, 'hex'), 'escape') AS e`);
  expect(row!.e).toMatch(/^[\x00-\x7f]*$/); // ASCII only on the wire
  expect(bytesFromEscaped(row!.e).equals(bytes)).toBe(true);
});

test("text of characters of every UTF-8 length comes back as its UTF-8 bytes", async () => {
  const text = `{"name":"Avtal – “smart” \\"quotes\\" \\\\ ö € 😀 日本"}`;
  const row = await queryOne<{ e: string }>(db.prisma, Prisma.sql`SELECT ${utf8BytesEscaped(Prisma.sql`${text}::text`)} AS e`);
  expect(bytesFromEscaped(row!.e).equals(Buffer.from(text, "utf8"))).toBe(true);
  expect(bytesFromEscaped("no escapes at all").toString()).toBe("no escapes at all");
});

test("text that is not in the escape format is refused, not misread", () => {
  expect(() => bytesFromEscaped("a\\9zz")).toThrow(/not bytea escape format/);
  expect(() => bytesFromEscaped("ends with \\")).toThrow(/not bytea escape format/);
});

test("with a tail: the decoded bytes then the tail, in one buffer, whatever the escapes around the edges", async () => {
  const tail = Buffer.from(',"_links":{"self":"x"}}', "utf8");
  const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  for (const bytes of [all, Buffer.from("plain"), Buffer.from("\\"), Buffer.from("–"), Buffer.from("a\\b–"), Buffer.alloc(0), Buffer.concat([all, Buffer.from("ends plainly")])]) {
    const row = await queryOne<{ e: string }>(db.prisma, Prisma.sql`SELECT encode(decode(${bytes.toString("hex")}, 'hex'), 'escape') AS e`);
    expect(bytesFromEscaped(row!.e, tail).equals(Buffer.concat([bytes, tail])), JSON.stringify(row!.e)).toBe(true);
    expect(bytesFromEscaped(row!.e).equals(bytes), JSON.stringify(row!.e)).toBe(true);
  }
  expect(() => bytesFromEscaped("a\\12", tail)).toThrow(/not bytea escape format/);
});

test("a list preload comes back in pieces of at most PIECE_BYTES, each a short string, joined into the exact bytes", async () => {
  const user = await createUser(db.prisma, { isAdmin: true });
  // Three and a half pieces of text with a character of every UTF-8 length, so pieces begin and end mid-character.
  const text = "aé€😀".repeat(Math.ceil((PIECE_BYTES * 3.5) / 10));
  const preload = listPreload(Prisma.sql`(SELECT ${listHeadSql(Prisma.sql`7`, Prisma.sql`json_build_array(${text}::text)`)})`);
  const read = await authenticateSessionUser(db.prisma, user.id, preload);
  const pieces = read!.preloaded as string[];
  expect(pieces.length).toBe(Math.ceil(Buffer.byteLength(JSON.stringify({ count: 7, data: [text] }).slice(0, -1)) / PIECE_BYTES));
  expect(pieces.every((piece) => piece.length <= PIECE_BYTES * 4)).toBe(true);
  expect(listCountOfEscaped(pieces)).toBe(7);
  expect(JSON.parse(`${bytesFromEscaped(pieces, Buffer.from("}")).toString("utf8")}`)).toEqual({ count: 7, data: [text] });
  // A caller the credentials do not hold for reads nothing: no pieces, no row but the one.
  expect(await authenticateSessionUser(db.prisma, user.id + 1000, preload)).toBeNull();
});
