-- CreateEnum
CREATE TYPE "email_status" AS ENUM ('queued', 'sending', 'sent', 'failed', 'kept', 'undeliverable');

-- AlterEnum
ALTER TYPE "auth_via" ADD VALUE 'signing_link';

-- AlterTable
ALTER TABLE "contracts" ADD COLUMN     "published_at" TIMESTAMPTZ(3),
ADD COLUMN     "signing_period_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "state_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "participants" ADD COLUMN     "decline_reason" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "signed_name" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "signing_nonce" TEXT,
ADD COLUMN     "signing_token_hash" TEXT,
ADD COLUMN     "two_step_code_attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "two_step_code_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "two_step_code_nonce" TEXT;

-- AlterTable
ALTER TABLE "templates" ADD COLUMN     "signing_period_days" INTEGER NOT NULL DEFAULT 30;

-- CreateTable
CREATE TABLE "email_messages" (
    "id" SERIAL NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "kind" TEXT NOT NULL,
    "contract_id" INTEGER,
    "participant_id" INTEGER,
    "to_address" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "link_origin" TEXT NOT NULL DEFAULT '',
    "status" "email_status" NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMPTZ(3),
    "last_error" TEXT NOT NULL DEFAULT '',
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "email_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "email_messages_status_next_attempt_at_idx" ON "email_messages"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "email_messages_contract_id_id_idx" ON "email_messages"("contract_id", "id");

-- CreateIndex
CREATE INDEX "email_messages_created_at_id_idx" ON "email_messages"("created_at", "id");

-- CreateIndex
CREATE INDEX "contracts_state_signing_period_expires_at_idx" ON "contracts"("state", "signing_period_expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "participants_signing_token_hash_key" ON "participants"("signing_token_hash");

-- Existing contracts: their state last changed when they were created (every one is still a draft).
UPDATE "contracts" SET "state_updated_at" = "created_at";
