-- Staff's end of a contract as its last day (docs/lifecycle.md "Notice and termination"): notice, and
-- termination on a date, were kept as the instant of that day's midnight in the workspace's time
-- zone then; read again after the zone changed, the day moved and a period could renew past it
-- (contract.renew written for a contract given notice). Now the day is kept, and its midnight is
-- read in the zone in force; `end_at` keeps only the instant of a termination "now". Ends kept
-- before: an instant at midnight in the workspace's zone was such a day.
ALTER TABLE "contracts" ADD COLUMN "end_on" DATE;

UPDATE "contracts" c
   SET "end_on" = ((c."end_at" AT TIME ZONE w."time_zone") - INTERVAL '1 day')::date, "end_at" = NULL
  FROM "workspaces" w
 WHERE w."id" = c."workspace_id" AND c."end_at" IS NOT NULL AND (c."end_at" AT TIME ZONE w."time_zone")::time = TIME '00:00';
