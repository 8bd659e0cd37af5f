-- The search document's text in lower case (docs/performance.md "Search"): a part of a word is
-- found by LIKE on `lower(q)` (lib/api/json/contract-search.ts `searchMatchSql`), which is what
-- ILIKE does on this text, case folded by `lower()` on both sides, each time it reads it: once for
-- each document a walk tests, and on each of the hundred texts of each partition's statistics the
-- planner reads to estimate how many documents hold it (1 µs a document instead of 5; planning
-- a search for a part of a word, 2–3 ms less on each of the two forms). The text is only searched,
-- never shown (the highlights read the rows); its trigrams are the same (pg_trgm folds case).

CREATE OR REPLACE VIEW "contract_search_source" AS
SELECT c."id" AS "contract_id", c."workspace_id", c."name",
       lower(concat_ws(E'\n', c."name", pp."people", df."vals", bd."text")) AS "doc",
       setweight(to_tsvector('simple', c."name"), 'A')
         || setweight(to_tsvector('simple', concat_ws(E'\n', pp."people", pp."address_parts")), 'B')
         || setweight(to_tsvector('simple', coalesce(df."vals", '')), 'C') || setweight(to_tsvector('simple', coalesce(bd."text", '')), 'D') AS "tsv"
  FROM "contracts" c
  CROSS JOIN LATERAL (
    SELECT string_agg(concat_ws(E'\n', p."name", q."people"), E'\n' ORDER BY p."id") AS "people",
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
    SELECT string_agg(concat_ws(E'\n', nullif(s->>'heading', ''), nullif("contract_text_searched"(s->>'text'), '')), E'\n') AS "text"
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof(c."body"->'sections') = 'array' THEN c."body"->'sections' ELSE '[]'::jsonb END) s) bd;

-- Every document, as the view now gives it (the text is what the triggers wrote: lower() of it is
-- the view's text). Every row is written again: 4.5 minutes at 1,000,200 contracts, during which
-- changes to contracts wait; autovacuum then reclaims the old rows.
UPDATE "contract_search" SET "doc" = lower("doc") WHERE "doc" <> lower("doc");
-- The planner's statistics of the text, for the same reason.
ANALYZE "contract_search";
