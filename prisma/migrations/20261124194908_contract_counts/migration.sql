-- CreateTable
CREATE TABLE "contract_counts" (
    "workspace_id" INTEGER NOT NULL,
    "state" "contract_state" NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "contract_counts_pkey" PRIMARY KEY ("workspace_id","state")
);

-- CreateTable
CREATE TABLE "contract_count_deltas" (
    "id" BIGSERIAL NOT NULL,
    "workspace_id" INTEGER NOT NULL,
    "state" "contract_state" NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "contract_count_deltas_pkey" PRIMARY KEY ("id")
);

-- Every change to the contracts a workspace has in a state inserts its delta here, in the same
-- transaction (docs/performance.md "The list's count"). Inserts only: two writers never wait for
-- each other on a counter row. A statement's inserted or deleted rows are counted once per
-- workspace and state (transition tables), so a bulk insert adds a handful of rows.
CREATE FUNCTION "contract_counts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "contract_count_deltas" ("workspace_id", "state", "n")
    SELECT "workspace_id", "state", count(*) FROM "new_rows" GROUP BY "workspace_id", "state";
  RETURN NULL;
END $$;

CREATE FUNCTION "contract_counts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "contract_count_deltas" ("workspace_id", "state", "n")
    SELECT "workspace_id", "state", -count(*) FROM "old_rows" GROUP BY "workspace_id", "state";
  RETURN NULL;
END $$;

CREATE FUNCTION "contract_counts_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "contract_count_deltas" ("workspace_id", "state", "n")
    VALUES (OLD."workspace_id", OLD."state", -1), (NEW."workspace_id", NEW."state", 1);
  RETURN NULL;
END $$;

CREATE FUNCTION "contract_counts_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "contract_count_deltas";
  DELETE FROM "contract_counts";
  RETURN NULL;
END $$;

CREATE TRIGGER "contracts_count_inserted" AFTER INSERT ON "contracts"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "contract_counts_inserted"();
CREATE TRIGGER "contracts_count_deleted" AFTER DELETE ON "contracts"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "contract_counts_deleted"();
-- Row by row, and only when the workspace or the state changes: most updates of a contract write
-- nothing here.
CREATE TRIGGER "contracts_count_moved" AFTER UPDATE OF "workspace_id", "state" ON "contracts"
  FOR EACH ROW WHEN (OLD."workspace_id" IS DISTINCT FROM NEW."workspace_id" OR OLD."state" IS DISTINCT FROM NEW."state")
  EXECUTE FUNCTION "contract_counts_moved"();
CREATE TRIGGER "contracts_count_truncated" AFTER TRUNCATE ON "contracts"
  FOR EACH STATEMENT EXECUTE FUNCTION "contract_counts_truncated"();

-- The contracts there are now.
INSERT INTO "contract_counts" ("workspace_id", "state", "n")
  SELECT "workspace_id", "state", count(*) FROM "contracts" GROUP BY "workspace_id", "state";
