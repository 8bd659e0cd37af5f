-- The search documents' workspaces, in each partition: a search reads a partition only when it holds
-- one of the workspaces searched (lib/api/json/contract.ts `searchListHeadSql`), which this index
-- answers in one look-up.
CREATE INDEX "contract_search_workspace_id_idx" ON "contract_search"("workspace_id");
