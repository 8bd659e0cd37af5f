-- AlterEnum
ALTER TYPE "contract_state" ADD VALUE 'withdrawn';

-- CreateEnum
CREATE TYPE "signing_order" AS ENUM ('parallel', 'ordered');

-- AlterTable
ALTER TABLE "contracts" ADD COLUMN     "delegation_allowed" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "signing_order" "signing_order" NOT NULL DEFAULT 'parallel';

-- AlterTable
ALTER TABLE "participants" ADD COLUMN     "delegated_at" TIMESTAMPTZ(3),
ADD COLUMN     "delegated_to_id" INTEGER,
ADD COLUMN     "invited_at" TIMESTAMPTZ(3),
ADD COLUMN     "sign_order" INTEGER;

-- CreateIndex
CREATE INDEX "participants_delegated_to_id_idx" ON "participants"("delegated_to_id");

-- AddForeignKey
ALTER TABLE "participants" ADD CONSTRAINT "participants_delegated_to_id_fkey" FOREIGN KEY ("delegated_to_id") REFERENCES "participants"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Backfill: every participant of a contract published before signing order existed was invited at publishing.
UPDATE "participants" p SET "invited_at" = c."published_at"
  FROM "parties" y JOIN "contracts" c ON c."id" = y."contract_id"
 WHERE p."party_id" = y."id" AND c."published_at" IS NOT NULL;
