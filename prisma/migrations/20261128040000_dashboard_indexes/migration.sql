-- Not in the Prisma schema (it cannot express a partial index): the dashboard's "awaiting me" and
-- the list's `awaiting_me=true` read the caller's participants whose signature is due, not every
-- participant the user is (the organizer of each contract they made: 600,000 rows for the admin of
-- the benchmark's 1,000,000 contracts; docs/performance.md "The dashboard").
CREATE INDEX "participants_awaiting_user_idx" ON "participants" ("user_id")
  WHERE "signatory" AND "sign_state" = 'undecided' AND "delegated_at" IS NULL AND "invited_at" IS NOT NULL;
