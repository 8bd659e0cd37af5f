-- The query the relevance rank reads (lib/api/json/contract-search.ts `searchRankOfDocumentSql`):
-- every word of a search, any of them (`|`), as the search document's words are read (`or`, an
-- operator, left out). Ranked against the search itself (`&`), PostgreSQL's rank compares every
-- pair of its words at every place each is held (up to 256), so a search of many common words cost
-- about 100 ms a long document and seconds a page; ranked by any word, each word's places are read
-- once. Its words' order and nearness count through the phrase's bonus instead. NULL: no word.
CREATE FUNCTION "search_rank_query"("q" text) RETURNS tsquery LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN (SELECT string_agg('''' || replace(replace(l, '\', '\\'), '''', '''''') || '''', ' | ')::tsquery
            FROM unnest(tsvector_to_array(to_tsvector('simple', "q"))) l WHERE l <> 'or');
