-- The search document holds what a reader sees (docs/api.md "Finding contracts"):

-- 1. A number written after a hyphen, also as the number. PostgreSQL's parser reads `PO-4411` as
-- the word `po` and the signed number `-4411` (and `556677-8899` as `556677` and `-8899`), so a
-- search for `po 4411` or `8899` as words found nothing. Each signed number is also held unsigned,
-- at its place and with its weight: `PO-4411` (the words po, -4411) and a phrase `"po 4411"` both
-- match, and a search of other words ranks as before (the rank reads only the words searched).
-- Built as the text form of the words: `||` would move the added words after the others.
CREATE FUNCTION "search_words"("text" text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN (SELECT CASE WHEN u."words" IS NULL THEN v ELSE (v::text || ' ' || u."words")::tsvector END
            FROM to_tsvector('simple', "text") v,
                 LATERAL (SELECT string_agg('''' || replace(replace(substr(w.lexeme, 2), '\', '\\'), '''', '''''') || ''':' || array_to_string(w.positions, ','), ' ') AS "words"
                            FROM unnest(v) w WHERE w.lexeme ~ '^-[0-9]') u);

-- 2. A section's text with each data field's value where its placeholder stands, as
-- lib/domain/contract-document.ts `layoutText` fills it in (the first data field of that custom id,
-- when it has a value): `PO-{{field.order}}` reads `PO-7788`, one word with the text around it, as
-- the document shows it (it read `PO-…`: `PO-7788` found nothing). Every other placeholder still
-- reads `…`, no words of the text: a value missing shows the field's name in brackets, a label;
-- `{{parties}}` and `{{signatories}}` show the parties' and people's names, words of the document
-- already; `{{term.…}}` shows the term in words TypeScript makes from its settings (`termWords`:
-- "on signing", "renewed every 3 months"), which the database could only make from a second copy
-- of that wording. The highlights read the same text (lib/api/json/contract-search.ts
-- `SEARCH_JSON`). The placeholders are the text's matches of the pattern and the pieces between
-- them its split by it, so the two alternate; a text without `{{` is read as it is.
CREATE FUNCTION "contract_text_searched"("text" text, "contract" int) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE
  RETURN CASE WHEN strpos("text", '{{') = 0 THEN "text" ELSE (
    SELECT string_agg(p."piece" || coalesce(m."shown", ''), '' ORDER BY p."i")
      FROM unnest(regexp_split_to_array("text", '\{\{[^{}]*\}\}')) WITH ORDINALITY p("piece", "i")
      LEFT JOIN (
        SELECT x."i", coalesce((SELECT CASE WHEN d."value" ~ '\S' THEN d."value" END FROM "contract_data_fields" d
                                 WHERE d."contract_id" = "contract" AND d."custom_id" <> ''
                                   AND 'field.' || d."custom_id" = regexp_replace(x."m"[1], '^\s+|\s+$', '', 'g')
                                 ORDER BY d."id" LIMIT 1), '…') AS "shown"
          FROM regexp_matches("text", '\{\{([^{}]*)\}\}', 'g') WITH ORDINALITY x("m", "i")) m ON m."i" = p."i") END;

-- 3. A party's identification number, a word of its party's (B): the document lists each party
-- with it (`Fjordline AS (company, org. no. 556677-8899, NO)`; a paragraph of `{{parties}}` too).
-- The view as migration search_doc_lower_case left it, with 1–3.
CREATE OR REPLACE VIEW "contract_search_source" AS
SELECT c."id" AS "contract_id", c."workspace_id", c."name",
       lower(concat_ws(E'\n', c."name", pp."people", df."vals", bd."text")) AS "doc",
       setweight(search_words(c."name"), 'A')
         || setweight(search_words(concat_ws(E'\n', pp."people", pp."address_parts")), 'B')
         || setweight(search_words(coalesce(df."vals", '')), 'C') || setweight(search_words(coalesce(bd."text", '')), 'D') AS "tsv"
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

-- The placeholders' text as migration search_text_as_shown read it: no longer read.
DROP FUNCTION "contract_text_searched"(text);

-- A party's document follows its identification number too (migration contract_search). A data
-- field's value already refreshes its contract's document, so the text that shows it follows.
DROP TRIGGER "parties_search_updated" ON "parties";
CREATE TRIGGER "parties_search_updated" AFTER UPDATE OF "name", "identification_number", "contract_id" ON "parties" FOR EACH ROW
  WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."identification_number" IS DISTINCT FROM NEW."identification_number"
        OR OLD."contract_id" IS DISTINCT FROM NEW."contract_id")
  EXECUTE FUNCTION "contract_search_row_updated"();

-- Every document, as the view now gives it (each is read again; only a changed one is written:
-- one holding a number after a hyphen, a data field's placeholder or an identification number).
UPDATE "contract_search" s SET "doc" = v."doc", "tsv" = v."tsv"
  FROM "contract_search_source" v
 WHERE v."contract_id" = s."contract_id" AND (s."doc", s."tsv") IS DISTINCT FROM (v."doc", v."tsv");
ANALYZE "contract_search";
