-- The contract's state in its search document, with a partial index for each state: a search
-- filtered by state (`state=pending`, the list's tabs) walks that state's documents newest first, or
-- looks up the words among them, without joining each document's contract
-- (lib/api/json/contract-search-matches.ts). Walking every document and joining the contract read
-- 4–5 documents of other states for each of that state's (a company's name with `state=pending`:
-- 28,000 documents for 1,001 matches at 1,000,200 contracts). The view gives it, and a change of
-- state writes it (a trigger of its own: refreshing the whole document took 2 s for the expiry job's
-- batch of 500 contracts, this 0.2 s).
--
-- One transaction, contracts' writers held first (then the documents, in the order a change takes
-- them): a contract made between the new column and the new refresh would have a document without a
-- state, and a state changed after the backfill read and before the trigger, a stale one.
BEGIN;
LOCK TABLE "contracts" IN SHARE ROW EXCLUSIVE MODE;
LOCK TABLE "contract_search" IN ACCESS EXCLUSIVE MODE;

CREATE OR REPLACE VIEW "contract_search_source" AS
SELECT c."id" AS "contract_id", c."workspace_id", c."name",
       lower(concat_ws(E'\n', c."name", pp."people", df."vals", bd."text")) AS "doc",
       setweight(search_words(c."name"), 'A')
         || setweight(search_words(concat_ws(E'\n', pp."people", pp."address_parts")), 'B')
         || setweight(search_words(coalesce(df."vals", '')), 'C') || setweight(search_words(coalesce(bd."text", '')), 'D') AS "tsv",
       c."state"
  FROM "contracts" c
  CROSS JOIN LATERAL (
    SELECT string_agg(concat_ws(E'\n', p."name", nullif(p."identification_number", ''), q."people"), E'\n' ORDER BY p."id") AS "people",
           string_agg(q."address_parts", E'\n' ORDER BY p."id") AS "address_parts"
      FROM "parties" p
      LEFT JOIN LATERAL (SELECT string_agg(concat_ws(E'\n', nullif(x."name", ''), nullif(x."email", '')), E'\n' ORDER BY x."id") AS "people",
                                string_agg(split_part(x."email", '@', 1) || ' ' || split_part(x."email", '@', 2), E'\n' ORDER BY x."id")
                                  FILTER (WHERE x."email" LIKE '%@%') AS "address_parts"
                           FROM "participants" x WHERE x."party_id" = p."id") q ON true
     WHERE p."contract_id" = c."id") pp
  CROSS JOIN LATERAL (
    SELECT string_agg(f."value", E'\n' ORDER BY f."id") AS "vals" FROM "contract_data_fields" f WHERE f."contract_id" = c."id" AND f."value" <> '') df
  CROSS JOIN LATERAL (
    SELECT string_agg(concat_ws(E'\n', nullif(s->>'heading', ''), nullif("contract_text_searched"(s->>'text', c."id"), '')), E'\n') AS "text"
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof(c."body"->'sections') = 'array' THEN c."body"->'sections' ELSE '[]'::jsonb END) s) bd;

ALTER TABLE "contract_search" ADD COLUMN "state" "contract_state";
UPDATE "contract_search" s SET "state" = c."state" FROM "contracts" c WHERE c."id" = s."contract_id";
ALTER TABLE "contract_search" ALTER COLUMN "state" SET NOT NULL;
-- Each state's documents by contract, newest first: a partial index for each state (not in the Prisma
-- schema, which cannot express one). On ("state", "contract_id") PostgreSQL costed each row as a
-- random read (the state's order is not the table's) and walked the key instead, reading every
-- state's documents (8 ms against 19–24 for a partition's 1,001 matches of `Polar Logistics`
-- pending). A search names its state as a constant, which these predicates need
-- (contract-search-matches.ts). A state added to the type needs its index here too.
CREATE INDEX "contract_search_draft_idx" ON "contract_search" ("contract_id") WHERE "state" = 'draft';
CREATE INDEX "contract_search_pending_idx" ON "contract_search" ("contract_id") WHERE "state" = 'pending';
CREATE INDEX "contract_search_overdue_idx" ON "contract_search" ("contract_id") WHERE "state" = 'overdue';
CREATE INDEX "contract_search_signed_idx" ON "contract_search" ("contract_id") WHERE "state" = 'signed';
CREATE INDEX "contract_search_declined_idx" ON "contract_search" ("contract_id") WHERE "state" = 'declined';
CREATE INDEX "contract_search_withdrawn_idx" ON "contract_search" ("contract_id") WHERE "state" = 'withdrawn';

-- As migration search_by_workspace left it, with the state.
CREATE OR REPLACE FUNCTION "contract_search_refresh"("ids" int[]) RETURNS void LANGUAGE sql AS $$
  SELECT 1 FROM "contracts" WHERE "id" = ANY("ids") ORDER BY "id" FOR SHARE;
  DELETE FROM "contract_search" s USING "contracts" c
   WHERE s."contract_id" = ANY("ids") AND c."id" = s."contract_id" AND c."workspace_id" <> s."workspace_id";
  INSERT INTO "contract_search" ("contract_id", "workspace_id", "name", "doc", "tsv", "state")
  SELECT "contract_id", "workspace_id", "name", "doc", "tsv", "state" FROM "contract_search_source" WHERE "contract_id" = ANY("ids")
  ON CONFLICT ("contract_id", "workspace_id") DO UPDATE SET "name" = EXCLUDED."name", "doc" = EXCLUDED."doc", "tsv" = EXCLUDED."tsv", "state" = EXCLUDED."state"
$$;

-- A contract's document follows its state: the state alone, written where the document is (its
-- contract's row is locked by the change, so no move runs meanwhile). A change of name, text or
-- workspace in the same statement refreshes the whole document as well (migration contract_search),
-- with the same state.
CREATE FUNCTION "contract_search_state_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "contract_search" SET "state" = NEW."state" WHERE "contract_id" = NEW."id" AND "workspace_id" = NEW."workspace_id";
  RETURN NULL;
END $$;
CREATE TRIGGER "contracts_search_state_updated" AFTER UPDATE OF "state" ON "contracts" FOR EACH ROW
  WHEN (OLD."state" IS DISTINCT FROM NEW."state") EXECUTE FUNCTION "contract_search_state_changed"();

COMMIT;

ANALYZE "contract_search";
