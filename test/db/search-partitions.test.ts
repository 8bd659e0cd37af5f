// The search reads the documents partition by partition, by name
// (lib/api/json/contract-search-matches.ts): the names it reads are the database's partitions, all of them. A partition
// it did not name would hold documents no search finds.
import { afterAll, beforeAll, expect, test } from "vitest";
import { SEARCH_PARTITIONS, searchPartitionName } from "@/lib/api/json/contract-search";
import { CONTRACT_STATES } from "@/lib/domain/enums";
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

// A search filtered by state walks that state's documents by its partial index (migration
// search_state), which PostgreSQL uses only for a state it has one for: every state has one.
test("every contract state has its partial index of search documents", async () => {
  const rows = await db.prisma.$queryRaw<{ state: string }[]>`
    SELECT substring(indexdef from 'WHERE \\(state = ''([a-z_]+)''::contract_state\\)') AS state
      FROM pg_indexes WHERE tablename = 'contract_search' AND indexdef LIKE '%(contract_id) WHERE%' ORDER BY 1`;
  expect(rows.map((r) => r.state)).toEqual([...CONTRACT_STATES].sort());
});
