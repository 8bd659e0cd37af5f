-- CreateTable
CREATE TABLE "contract_search" (
    "contract_id" INTEGER NOT NULL,
    "workspace_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "doc" TEXT NOT NULL,
    "tsv" tsvector NOT NULL,

    CONSTRAINT "contract_search_pkey" PRIMARY KEY ("contract_id")
);

-- AddForeignKey
ALTER TABLE "contract_search" ADD CONSTRAINT "contract_search_contract_id_fkey" FOREIGN KEY ("contract_id") REFERENCES "contracts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Not in the Prisma schema (it cannot express them): the extension, the search document's source
-- and its triggers (docs/api.md "Finding contracts", docs/performance.md "Search"); its GIN indexes after the backfill.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- What a contract's search document is made of, written once: the triggers refresh a contract's
-- row from it, a bulk load (bench/dataset.ts) fills the table from it. Text search with the
-- 'simple' configuration: lower case, no stemming and no stop words, since contracts mix Nordic
-- languages and English. Weights: A the name, B parties and people, C data field values, D the text.
CREATE VIEW "contract_search_source" AS
SELECT c."id" AS "contract_id", c."workspace_id", c."name",
       concat_ws(E'\n', c."name", pp."people", df."vals", bd."text") AS "doc",
       setweight(to_tsvector('simple', c."name"), 'A') || setweight(to_tsvector('simple', coalesce(pp."people", '')), 'B')
         || setweight(to_tsvector('simple', coalesce(df."vals", '')), 'C') || setweight(to_tsvector('simple', coalesce(bd."text", '')), 'D') AS "tsv"
  FROM "contracts" c
  CROSS JOIN LATERAL (
    SELECT string_agg(concat_ws(E'\n', p."name", q."people"), E'\n' ORDER BY p."id") AS "people"
      FROM "parties" p
      LEFT JOIN LATERAL (SELECT string_agg(concat_ws(E'\n', nullif(x."name", ''), nullif(x."email", '')), E'\n' ORDER BY x."id") AS "people"
                           FROM "participants" x WHERE x."party_id" = p."id") q ON true
     WHERE p."contract_id" = c."id") pp
  CROSS JOIN LATERAL (
    SELECT string_agg(f."value", E'\n' ORDER BY f."id") AS "vals" FROM "contract_data_fields" f WHERE f."contract_id" = c."id" AND f."value" <> '') df
  CROSS JOIN LATERAL (
    SELECT string_agg(concat_ws(E'\n', nullif(s->>'heading', ''), nullif(s->>'text', '')), E'\n') AS "text"
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof(c."body"->'sections') = 'array' THEN c."body"->'sections' ELSE '[]'::jsonb END) s) bd;

-- The rows of these contracts made again from their sources (a deleted contract's row goes with it:
-- the foreign key cascades).
CREATE FUNCTION "contract_search_refresh"("ids" int[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "contract_search" ("contract_id", "workspace_id", "name", "doc", "tsv")
  SELECT "contract_id", "workspace_id", "name", "doc", "tsv" FROM "contract_search_source" WHERE "contract_id" = ANY("ids")
  ON CONFLICT ("contract_id") DO UPDATE SET "workspace_id" = EXCLUDED."workspace_id", "name" = EXCLUDED."name", "doc" = EXCLUDED."doc", "tsv" = EXCLUDED."tsv"
$$;

-- Inserts and deletes by statement (a contract made with 200 participants is refreshed once per
-- table, not once per row); updates by row, and only when a searched column changed.
CREATE FUNCTION "contract_search_rows_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids int[];
BEGIN
  IF TG_TABLE_NAME = 'contracts' THEN
    SELECT array_agg("id") INTO ids FROM "new_rows";
  ELSIF TG_TABLE_NAME = 'participants' AND TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT p."contract_id") INTO ids FROM "new_rows" r JOIN "parties" p ON p."id" = r."party_id";
  ELSIF TG_TABLE_NAME = 'participants' THEN
    SELECT array_agg(DISTINCT p."contract_id") INTO ids FROM "old_rows" r JOIN "parties" p ON p."id" = r."party_id";
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT "contract_id") INTO ids FROM "new_rows";
  ELSE
    SELECT array_agg(DISTINCT "contract_id") INTO ids FROM "old_rows";
  END IF;
  IF ids IS NOT NULL THEN PERFORM "contract_search_refresh"(ids); END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION "contract_search_row_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'contracts' THEN
    PERFORM "contract_search_refresh"(ARRAY[NEW."id"]);
  ELSIF TG_TABLE_NAME = 'participants' THEN
    PERFORM "contract_search_refresh"(ARRAY(SELECT "contract_id" FROM "parties" WHERE "id" IN (OLD."party_id", NEW."party_id")));
  ELSE
    PERFORM "contract_search_refresh"(ARRAY[OLD."contract_id", NEW."contract_id"]);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "contracts_search_inserted" AFTER INSERT ON "contracts"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "contract_search_rows_changed"();
CREATE TRIGGER "contracts_search_updated" AFTER UPDATE OF "name", "body", "workspace_id" ON "contracts" FOR EACH ROW
  WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."workspace_id" IS DISTINCT FROM NEW."workspace_id" OR OLD."body" IS DISTINCT FROM NEW."body")
  EXECUTE FUNCTION "contract_search_row_updated"();

CREATE TRIGGER "parties_search_inserted" AFTER INSERT ON "parties"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "contract_search_rows_changed"();
CREATE TRIGGER "parties_search_deleted" AFTER DELETE ON "parties"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "contract_search_rows_changed"();
CREATE TRIGGER "parties_search_updated" AFTER UPDATE OF "name", "contract_id" ON "parties" FOR EACH ROW
  WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."contract_id" IS DISTINCT FROM NEW."contract_id")
  EXECUTE FUNCTION "contract_search_row_updated"();

CREATE TRIGGER "participants_search_inserted" AFTER INSERT ON "participants"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "contract_search_rows_changed"();
CREATE TRIGGER "participants_search_deleted" AFTER DELETE ON "participants"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "contract_search_rows_changed"();
CREATE TRIGGER "participants_search_updated" AFTER UPDATE OF "name", "email", "party_id" ON "participants" FOR EACH ROW
  WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."email" IS DISTINCT FROM NEW."email" OR OLD."party_id" IS DISTINCT FROM NEW."party_id")
  EXECUTE FUNCTION "contract_search_row_updated"();

CREATE TRIGGER "contract_data_fields_search_inserted" AFTER INSERT ON "contract_data_fields"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "contract_search_rows_changed"();
CREATE TRIGGER "contract_data_fields_search_deleted" AFTER DELETE ON "contract_data_fields"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "contract_search_rows_changed"();
CREATE TRIGGER "contract_data_fields_search_updated" AFTER UPDATE OF "value", "contract_id" ON "contract_data_fields" FOR EACH ROW
  WHEN (OLD."value" IS DISTINCT FROM NEW."value" OR OLD."contract_id" IS DISTINCT FROM NEW."contract_id")
  EXECUTE FUNCTION "contract_search_row_updated"();

-- The contracts there are now.
INSERT INTO "contract_search" ("contract_id", "workspace_id", "name", "doc", "tsv")
  SELECT "contract_id", "workspace_id", "name", "doc", "tsv" FROM "contract_search_source";

CREATE INDEX "contract_search_tsv_idx" ON "contract_search" USING gin ("tsv");
CREATE INDEX "contract_search_doc_trgm_idx" ON "contract_search" USING gin ("doc" gin_trgm_ops);
