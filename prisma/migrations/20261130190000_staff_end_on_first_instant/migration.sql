-- Mends what migration `staff_end_on` left: it took an end kept as an instant for a last day only
-- when that instant was 00:00 in the workspace's zone. On a day whose clocks jump over midnight
-- (daylight saving starting at 00:00: Santiago, Havana, Beirut, Cairo), the day begins at 01:00, and
-- such an end stayed an instant. An end kept as the first instant of a day in the workspace's zone
-- (the instant a millisecond before it is on the day before) is the day before as its last day.
UPDATE "contracts" c
   SET "end_on" = (c."end_at" AT TIME ZONE w."time_zone")::date - 1, "end_at" = NULL
  FROM "workspaces" w
 WHERE w."id" = c."workspace_id" AND c."end_at" IS NOT NULL AND c."end_on" IS NULL
   AND ((c."end_at" - INTERVAL '1 millisecond') AT TIME ZONE w."time_zone")::date < (c."end_at" AT TIME ZONE w."time_zone")::date;
