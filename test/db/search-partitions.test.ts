// The search reads the documents partition by partition, by name
// (lib/api/json/contract-search-matches.ts): the names it reads are the database's partitions, all of them. A partition
// it did not name would hold documents no search finds.
import { afterAll, beforeAll, expect, test } from "vitest";
import { SEARCH_PARTITIONS, searchPartitionName } from "@/lib/api/json/contract-search";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

test("the search documents' partitions are the ones the search reads", async () => {
  const rows = await db.prisma.$queryRaw<{ name: string }[]>`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'contract_search'::regclass ORDER BY c.relname`;
  expect(rows.map((r) => r.name)).toEqual(Array.from({ length: SEARCH_PARTITIONS }, (_, k) => searchPartitionName(k)).sort());
});
