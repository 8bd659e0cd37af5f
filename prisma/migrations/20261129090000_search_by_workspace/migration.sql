-- The search documents split by workspace (docs/performance.md "Search"): a caller of some
-- workspaces walks only the partitions that hold them, newest first, instead of every workspace's
-- documents. Hash partitions (a workspace's partition never changes; no partition to make when a
-- workspace is made), eight: a workspace shares its partition only with those whose hash meets its
-- own, and the admin's merge of eight walks costs little more than one. Not in the Prisma schema (it
-- cannot express partitions); the table, its key and its indexes are as the schema says.

-- One transaction. A change made while the documents are copied waits, then writes into the new
-- table (its name is looked up again once the lock is granted): none is lost with the old one.
-- Searches go on reading.
BEGIN;
LOCK TABLE "contract_search" IN EXCLUSIVE MODE;

CREATE TABLE "contract_search_by_workspace" (
    "contract_id" INTEGER NOT NULL,
    "workspace_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "doc" TEXT NOT NULL,
    "tsv" tsvector NOT NULL
) PARTITION BY HASH ("workspace_id");

DO $$
BEGIN
  FOR i IN 0..7 LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF "contract_search_by_workspace" FOR VALUES WITH (MODULUS 8, REMAINDER %s)', 'contract_search_p' || i, i);
    -- A search reads few documents, in the list's order: no parallel workers (migration search_address_words).
    EXECUTE format('ALTER TABLE %I SET (parallel_workers = 0)', 'contract_search_p' || i);
  END LOOP;
END $$;

INSERT INTO "contract_search_by_workspace" ("contract_id", "workspace_id", "name", "doc", "tsv")
  SELECT "contract_id", "workspace_id", "name", "doc", "tsv" FROM "contract_search";
DROP TABLE "contract_search";
ALTER TABLE "contract_search_by_workspace" RENAME TO "contract_search";

-- A key must hold the partitions' column: (contract_id, workspace_id); still one row per contract
-- (the refresh below moves a contract's row when its workspace changes).
ALTER TABLE "contract_search" ADD CONSTRAINT "contract_search_pkey" PRIMARY KEY ("contract_id", "workspace_id");
ALTER TABLE "contract_search" ADD CONSTRAINT "contract_search_contract_id_fkey" FOREIGN KEY ("contract_id") REFERENCES "contracts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "contract_search_tsv_idx" ON "contract_search" USING gin ("tsv");
CREATE INDEX "contract_search_doc_trgm_idx" ON "contract_search" USING gin ("doc" gin_trgm_ops);

-- The rows of these contracts made again from their sources, in their workspace's partition: a
-- contract moved to another workspace leaves its old one's. The contracts are share-locked first:
-- a refresh waits for a move under way and reads the workspace it commits (else a party changed
-- during a move wrote the contract's row again under the workspace it left, readable there).
CREATE OR REPLACE FUNCTION "contract_search_refresh"("ids" int[]) RETURNS void LANGUAGE sql AS $$
  SELECT 1 FROM "contracts" WHERE "id" = ANY("ids") ORDER BY "id" FOR SHARE;
  DELETE FROM "contract_search" s USING "contracts" c
   WHERE s."contract_id" = ANY("ids") AND c."id" = s."contract_id" AND c."workspace_id" <> s."workspace_id";
  INSERT INTO "contract_search" ("contract_id", "workspace_id", "name", "doc", "tsv")
  SELECT "contract_id", "workspace_id", "name", "doc", "tsv" FROM "contract_search_source" WHERE "contract_id" = ANY("ids")
  ON CONFLICT ("contract_id", "workspace_id") DO UPDATE SET "name" = EXCLUDED."name", "doc" = EXCLUDED."doc", "tsv" = EXCLUDED."tsv"
$$;

-- A partitioned table is never analysed by autovacuum: its statistics once here.
ANALYZE "contract_search";

COMMIT;
