import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "vitest";
import { MIGRATIONS_DIR } from "@/lib/db/migration-files";
import { splitSqlScript } from "@/lib/db/sql-script";

test.each([
  ["plain statements", "SELECT 1; SELECT 2;\n\n", ["SELECT 1", "SELECT 2"]],
  ["no final semicolon", "SELECT 1;SELECT 2", ["SELECT 1", "SELECT 2"]],
  ["a string", "SELECT 'a;b', 'it''s;'; SELECT 3", ["SELECT 'a;b', 'it''s;'", "SELECT 3"]],
  ["an escape string", "SELECT E'\\';x'; SELECT 4", ["SELECT E'\\';x'", "SELECT 4"]],
  ["a name ending in e before a plain string", "SELECT type'x;'; SELECT 5", ["SELECT type'x;'", "SELECT 5"]],
  ["a quoted name", 'SELECT 1 AS "a;b"; SELECT 6', ['SELECT 1 AS "a;b"', "SELECT 6"]],
  ["a line comment", "-- one; two\nSELECT 7; -- three;\nSELECT 8", ["-- one; two\nSELECT 7", "-- three;\nSELECT 8"]],
  ["nested block comments", "SELECT /* a; /* b; */ c; */ 9; SELECT 10", ["SELECT /* a; /* b; */ c; */ 9", "SELECT 10"]],
  [
    "a function body",
    "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  INSERT INTO t VALUES (1);\n  RETURN NULL;\nEND $$;\nSELECT 11",
    ["CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  INSERT INTO t VALUES (1);\n  RETURN NULL;\nEND $$", "SELECT 11"],
  ],
  ["a tagged body holding $$", "DO $body$ BEGIN PERFORM '$$;'; END $body$; SELECT 12", ["DO $body$ BEGIN PERFORM '$$;'; END $body$", "SELECT 12"]],
  ["parameters are not dollar quotes", "SELECT $1; SELECT $2", ["SELECT $1", "SELECT $2"]],
  ["only comments and blanks after the last statement", "SELECT 13;\n-- the end\n", ["SELECT 13"]],
])("%s", (_name, script, statements) => {
  expect(splitSqlScript(script)).toEqual(statements);
});

// The migrations that were applied by splitting at every `;`, before the splitter existed; later
// ones may hold a `;` in a comment or string, which only the splitter reads right.
const SPLIT_AT_SEMICOLONS_UNTIL = "20261124194908_contract_counts";

test("each migration applied before the splitter, without a dollar-quoted body, splits exactly as at every `;`", async () => {
  const names = (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && e.name <= SPLIT_AT_SEMICOLONS_UNTIL)
    .map((e) => e.name);
  let compared = 0;
  for (const name of names) {
    const sql = await readFile(path.join(MIGRATIONS_DIR, name, "migration.sql"), "utf8");
    if (sql.includes("$$")) continue;
    const naive = sql.split(";").map((s) => s.trim()).filter(Boolean);
    expect(splitSqlScript(sql), name).toEqual(naive.filter((s) => !/^(?:--[^\n]*(?:\n|$)|\s)*$/.test(s)));
    compared++;
  }
  expect(compared).toBeGreaterThan(5);
});
