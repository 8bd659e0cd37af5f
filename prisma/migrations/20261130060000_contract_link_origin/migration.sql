-- The origin a contract's mails link under, kept from its publishing (docs/security.md, promise
-- 15): mails a signer's action causes (the next stage's invitations, the decision notices, the
-- sealed copy, a delegate's invitation, a code) were written under that signer's request's `Host`,
-- which anyone holding a link could set. Filled for contracts published before from their first
-- mail (the invitations of their publishing).
ALTER TABLE "contracts" ADD COLUMN "link_origin" TEXT NOT NULL DEFAULT '';

UPDATE "contracts" c SET "link_origin" = m."link_origin"
  FROM (SELECT DISTINCT ON ("contract_id") "contract_id", "link_origin" FROM "email_messages"
         WHERE "contract_id" IS NOT NULL AND "link_origin" <> '' ORDER BY "contract_id", "id") m
 WHERE m."contract_id" = c."id";
