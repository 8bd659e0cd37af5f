-- CreateEnum
CREATE TYPE "duration_type" AS ENUM ('none', 'single_period', 'recurring', 'recurring_with_initial');

-- CreateEnum
CREATE TYPE "lifecycle_state" AS ENUM ('awaiting', 'active', 'ended');

-- CreateEnum
CREATE TYPE "lifecycle_sub_state" AS ENUM ('canceled', 'terminated');

-- AlterTable
ALTER TABLE "contracts" ADD COLUMN     "deadline_warning_days" INTEGER,
ADD COLUMN     "duration_type" "duration_type" NOT NULL DEFAULT 'none',
ADD COLUMN     "end_at" TIMESTAMPTZ(3),
ADD COLUMN     "end_date" DATE,
ADD COLUMN     "end_kind" "lifecycle_sub_state",
ADD COLUMN     "end_warned_for" DATE,
ADD COLUMN     "ends_on" DATE,
ADD COLUMN     "initial_duration" TEXT,
ADD COLUMN     "lifecycle_due_at" TIMESTAMPTZ(3),
ADD COLUMN     "lifecycle_state" "lifecycle_state",
ADD COLUMN     "lifecycle_sub_state" "lifecycle_sub_state",
ADD COLUMN     "notice_deadline" DATE,
ADD COLUMN     "notice_period" TEXT,
ADD COLUMN     "notice_warned_for" DATE,
ADD COLUMN     "period_end_date" DATE,
ADD COLUMN     "period_start_date" DATE,
ADD COLUMN     "renewal_period" TEXT,
ADD COLUMN     "renewals" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "renewed_at" TIMESTAMPTZ(3),
ADD COLUMN     "signed_on" DATE,
ADD COLUMN     "start_date" DATE;

-- AlterTable
ALTER TABLE "templates" ADD COLUMN     "duration_type" "duration_type" NOT NULL DEFAULT 'none',
ADD COLUMN     "initial_duration" TEXT,
ADD COLUMN     "notice_period" TEXT,
ADD COLUMN     "renewal_period" TEXT;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "calendar_feed_token_hash" TEXT;

-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "deadline_warning_days" INTEGER NOT NULL DEFAULT 30,
ADD COLUMN     "time_zone" TEXT NOT NULL DEFAULT 'UTC';

-- CreateTable
CREATE TABLE "contract_reminders" (
    "id" SERIAL NOT NULL,
    "contract_id" INTEGER NOT NULL,
    "remind_on" DATE NOT NULL,
    "note" TEXT NOT NULL,
    "recipient_id" INTEGER NOT NULL,
    "created_by_id" INTEGER,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "sent_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contract_reminders_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "contract_reminders_contract_id_id_idx" ON "contract_reminders"("contract_id", "id");

-- CreateIndex
CREATE INDEX "contract_reminders_sent_at_due_at_idx" ON "contract_reminders"("sent_at", "due_at");

-- CreateIndex
CREATE INDEX "contracts_lifecycle_due_at_idx" ON "contracts"("lifecycle_due_at");

-- CreateIndex
CREATE INDEX "contracts_lifecycle_state_id_idx" ON "contracts"("lifecycle_state", "id");

-- CreateIndex
CREATE INDEX "contracts_ends_on_id_idx" ON "contracts"("ends_on", "id");

-- CreateIndex
CREATE INDEX "contracts_notice_deadline_id_idx" ON "contracts"("notice_deadline", "id");

-- CreateIndex
CREATE INDEX "contracts_renewed_at_idx" ON "contracts"("renewed_at");

-- CreateIndex
CREATE UNIQUE INDEX "users_calendar_feed_token_hash_key" ON "users"("calendar_feed_token_hash");

-- AddForeignKey
ALTER TABLE "contract_reminders" ADD CONSTRAINT "contract_reminders_contract_id_fkey" FOREIGN KEY ("contract_id") REFERENCES "contracts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contract_reminders" ADD CONSTRAINT "contract_reminders_recipient_id_fkey" FOREIGN KEY ("recipient_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
