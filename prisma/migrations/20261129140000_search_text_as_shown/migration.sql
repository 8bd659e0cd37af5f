-- A section's text as the search reads it: its placeholders (`{{parties}}`, `{{field.order_value}}`,
-- `{{term.start_date}}`: lib/domain/contract-document.ts `PLACEHOLDER`) each read as `…`, not as words.
-- The document a reader sees holds their values there, and those (parties, people, data field
-- values) are words of the search document already; the placeholders' own names are not: a search
-- for `parties` found nearly every contract. The highlights read the same text
-- (lib/api/json/contract-search.ts `SEARCH_JSON`).
CREATE FUNCTION "contract_text_searched"("text" text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN regexp_replace("text", '\{\{[^{}]*\}\}', '…', 'g');

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
    SELECT string_agg(concat_ws(E'\n', nullif(s->>'heading', ''), nullif("contract_text_searched"(s->>'text'), '')), E'\n') AS "text"
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof(c."body"->'sections') = 'array' THEN c."body"->'sections' ELSE '[]'::jsonb END) s) bd;

-- The documents that held a placeholder, again (only a document holding `{{` can change).
UPDATE "contract_search" s SET "doc" = v."doc", "tsv" = v."tsv"
  FROM "contract_search_source" v
 WHERE v."contract_id" = s."contract_id" AND s."doc" LIKE '%{{%' AND (s."doc", s."tsv") IS DISTINCT FROM (v."doc", v."tsv");
