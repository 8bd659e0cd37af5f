-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "reminder_first_days" INTEGER NOT NULL DEFAULT 5,
ADD COLUMN     "reminder_interval_days" INTEGER NOT NULL DEFAULT 2,
ADD COLUMN     "reminder_max" INTEGER NOT NULL DEFAULT 5,
ADD COLUMN     "expiry_warning_days" INTEGER NOT NULL DEFAULT 3;

-- AlterTable
ALTER TABLE "contracts" ADD COLUMN     "reminder_first_days" INTEGER,
ADD COLUMN     "reminder_interval_days" INTEGER,
ADD COLUMN     "reminder_max" INTEGER,
ADD COLUMN     "expiry_warning_days" INTEGER;

-- AlterTable
ALTER TABLE "participants" ADD COLUMN     "reminders_sent" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "last_reminded_at" TIMESTAMPTZ(3),
ADD COLUMN     "expiry_warned_at" TIMESTAMPTZ(3),
ADD COLUMN     "delivery_failed_at" TIMESTAMPTZ(3),
ADD COLUMN     "delivery_failure" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "contracts_state_updated_at_idx" ON "contracts"("state", "updated_at");

-- CreateIndex
CREATE INDEX "contracts_state_state_updated_at_idx" ON "contracts"("state", "state_updated_at");

-- CreateIndex
CREATE INDEX "participants_delivery_failed_at_idx" ON "participants"("delivery_failed_at");

-- Invitations that failed before this migration keep their status; their reason is the message's.
UPDATE "participants" p SET "delivery_failed_at" = m."created_at", "delivery_failure" = m."last_error"
  FROM (SELECT DISTINCT ON ("participant_id") "participant_id", "created_at", "last_error" FROM "email_messages"
         WHERE "kind" = 'invitation' AND "status" = 'failed' ORDER BY "participant_id", "id" DESC) m
 WHERE p."id" = m."participant_id" AND p."delivery_status" = 'failure';
