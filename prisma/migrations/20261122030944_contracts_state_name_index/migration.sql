-- CreateIndex
CREATE INDEX "contracts_state_name_id_idx" ON "contracts"("state", "name", "id");
