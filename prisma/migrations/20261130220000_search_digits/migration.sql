-- The ASCII digits of each search document, each run of them apart (`po-4411, 2026` reads ` 4411 2026`):
-- a search for a part of a number (one term of digits only: `4411`, `901`) reads these instead of
-- the whole text, about a quarter of its length, on every document a walk tests
-- (lib/api/json/contract-search.ts `searchMatchSql`). A run of digits is whole in both, so the same
-- documents hold the term. Kept by the database from `doc`; its own trigram index finds a number few
-- documents hold.
ALTER TABLE "contract_search" ADD COLUMN "digits" TEXT NOT NULL GENERATED ALWAYS AS (regexp_replace("doc", '[^0-9]+', ' ', 'g')) STORED;
CREATE INDEX "contract_search_digits_trgm_idx" ON "contract_search" USING gin ("digits" gin_trgm_ops);
ANALYZE "contract_search";
