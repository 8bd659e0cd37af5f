-- The sealed copies of deleted contracts (docs/security.md "The seal"): deleting a contract took its
-- contract_seals row with it (ON DELETE CASCADE), so /verify called a genuine copy "changed". The
-- deletion now keeps, in this table, each done seal's SHA-256, its certificate's and when it was
-- sealed, with the contract's id and the deletion's time; nothing personal. Contracts deleted before
-- cannot be filled in: their certificate's SHA-256 went with them.
-- CreateTable
CREATE TABLE "deleted_contract_seals" (
    "contract_id" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "certificate_sha256" TEXT NOT NULL,
    "sealed_at" TIMESTAMPTZ(3) NOT NULL,
    "deleted_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "deleted_contract_seals_pkey" PRIMARY KEY ("contract_id")
);

-- CreateIndex
CREATE INDEX "deleted_contract_seals_sha256_idx" ON "deleted_contract_seals"("sha256");

-- CreateIndex
CREATE INDEX "deleted_contract_seals_certificate_sha256_idx" ON "deleted_contract_seals"("certificate_sha256");
