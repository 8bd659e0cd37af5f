-- A participant's e-mail address is a word of the search document (the parser reads it whole), and
-- so are its two parts now: the domain (`example.org`, also typed `@example.org`) and the part before
-- the `@` (`jonas.lund`), weighted as people (B). The list looks inside words only for a part of a
-- name or a number (lib/api/json/contract-search.ts `searchesInsideWords`): a trigram look-up of an
-- address reads trigrams every document holds. The document's text (`doc`) is unchanged.
CREATE OR REPLACE VIEW "contract_search_source" AS
SELECT c."id" AS "contract_id", c."workspace_id", c."name",
       concat_ws(E'\n', c."name", pp."people", df."vals", bd."text") AS "doc",
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
    SELECT string_agg(concat_ws(E'\n', nullif(s->>'heading', ''), nullif(s->>'text', '')), E'\n') AS "text"
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof(c."body"->'sections') = 'array' THEN c."body"->'sections' ELSE '[]'::jsonb END) s) bd;

-- Every document again, with its addresses' parts.
UPDATE "contract_search" s SET "tsv" = v."tsv" FROM "contract_search_source" v WHERE v."contract_id" = s."contract_id";

-- A search reads few documents, in the list's order (lib/api/json/contract.ts `searchListHeadSql`):
-- starting parallel workers took 5 ms of a 1 ms search, and a worker each ran the same bitmap scan.
ALTER TABLE "contract_search" SET (parallel_workers = 0);
