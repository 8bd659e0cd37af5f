-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN     "actor_email" TEXT,
ADD COLUMN     "actor_name" TEXT;

-- AlterTable
ALTER TABLE "participants" ADD COLUMN     "two_step_code_requests" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "two_step_locked_at" TIMESTAMPTZ(3),
ADD COLUMN     "two_step_wrong_tries" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "two_step_wrong_tries_total" INTEGER NOT NULL DEFAULT 0;

-- Backfill: the events written before these columns name their actor as they are now (the best
-- there is), and every later event stores its actor as they were at the time.
UPDATE "audit_events" e SET "actor_name" = u."name", "actor_email" = u."email"
  FROM "users" u WHERE e."actor_user_id" = u."id";
UPDATE "audit_events" e SET "actor_name" = p."name", "actor_email" = p."email"
  FROM "participants" p
 WHERE e."via" = 'signing_link' AND e."entity_type" = 'participant' AND e."entity_id" = p."id";
