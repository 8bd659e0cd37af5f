-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN     "chain_hash" TEXT,
ADD COLUMN     "chain_seq" INTEGER;

-- AlterTable
ALTER TABLE "email_messages" ADD COLUMN     "attachment_file_id" INTEGER;

-- AlterTable
ALTER TABLE "participants" ADD COLUMN     "decided_ip" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "decided_user_agent" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "audit_chain_heads" (
    "contract_id" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "audit_chain_heads_pkey" PRIMARY KEY ("contract_id")
);

-- CreateTable
CREATE TABLE "contract_seals" (
    "contract_id" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMPTZ(3),
    "last_error" TEXT NOT NULL DEFAULT '',
    "file_id" INTEGER,
    "sha256" TEXT,
    "sealed_at" TIMESTAMPTZ(3),
    "certificate_sha256" TEXT,
    "link_origin" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contract_seals_pkey" PRIMARY KEY ("contract_id")
);

-- CreateIndex
CREATE INDEX "contract_seals_status_next_attempt_at_idx" ON "contract_seals"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "contract_seals_sha256_idx" ON "contract_seals"("sha256");

-- CreateIndex
CREATE UNIQUE INDEX "audit_events_contract_id_chain_seq_key" ON "audit_events"("contract_id", "chain_seq");

-- AddForeignKey
ALTER TABLE "contract_seals" ADD CONSTRAINT "contract_seals_contract_id_fkey" FOREIGN KEY ("contract_id") REFERENCES "contracts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The audit chain (docs/security.md "The audit chain"). Not in the Prisma schema, which cannot
-- express functions or triggers. An event's hash is the lowercase hex SHA-256 of the UTF-8 text
--   <previous event's hash> "\n" <the jsonb text of the object below>
-- where the previous hash of a contract's first event is the empty string, and the object is
-- PostgreSQL's jsonb rendering (keys sorted by length, then bytewise; ", " and ": " separators) of
-- the event's stored columns. Written once here: the trigger, the backfill below and the
-- verification (lib/services/audit/verify-contract-chain.ts) all call this function.
CREATE FUNCTION "audit_event_hash"(e "audit_events", prev TEXT) RETURNS TEXT LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(prev || E'\n' || jsonb_build_object(
    'seq', e.chain_seq,
    'id', e.id,
    'created_at', to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    'contract_id', e.contract_id,
    'workspace_id', e.workspace_id,
    'action', e.action,
    'entity_type', e.entity_type,
    'entity_id', e.entity_id,
    'via', e.via::text,
    'actor_user_id', e.actor_user_id,
    'api_token_id', e.api_token_id,
    'actor_name', e.actor_name,
    'actor_email', e.actor_email,
    'request_id', e.request_id,
    'before', e.before,
    'after', e.after
  )::text, 'UTF8')), 'hex')
$$;

-- Every insert of a contract's event, whichever statement makes it (Prisma's create, the services'
-- INSERT … SELECT), appends to that contract's chain. The head row is locked until the transaction
-- ends, so two transactions never chain onto the same event; ids may still be taken out of chain
-- order, hence `chain_seq`.
CREATE FUNCTION "audit_events_chain"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head "audit_chain_heads";
BEGIN
  INSERT INTO "audit_chain_heads" ("contract_id", "seq", "hash") VALUES (NEW."contract_id", 0, '')
    ON CONFLICT ("contract_id") DO NOTHING;
  SELECT * INTO head FROM "audit_chain_heads" WHERE "contract_id" = NEW."contract_id" FOR UPDATE;
  NEW."chain_seq" := head."seq" + 1;
  NEW."chain_hash" := "audit_event_hash"(NEW, head."hash");
  UPDATE "audit_chain_heads" SET "seq" = NEW."chain_seq", "hash" = NEW."chain_hash" WHERE "contract_id" = NEW."contract_id";
  RETURN NEW;
END $$;

CREATE TRIGGER "audit_events_chain" BEFORE INSERT ON "audit_events"
  FOR EACH ROW WHEN (NEW."contract_id" IS NOT NULL) EXECUTE FUNCTION "audit_events_chain"();

-- Backfill: the events already there chain in id order, contract by contract.
DO $$
DECLARE
  e "audit_events";
  prev TEXT := '';
  current_contract INTEGER := NULL;
  n INTEGER := 0;
BEGIN
  FOR e IN SELECT * FROM "audit_events" WHERE "contract_id" IS NOT NULL ORDER BY "contract_id", "id" LOOP
    IF current_contract IS DISTINCT FROM e."contract_id" THEN
      current_contract := e."contract_id";
      prev := '';
      n := 0;
    END IF;
    n := n + 1;
    e."chain_seq" := n;
    e."chain_hash" := "audit_event_hash"(e, prev);
    UPDATE "audit_events" SET "chain_seq" = e."chain_seq", "chain_hash" = e."chain_hash" WHERE "id" = e."id";
    prev := e."chain_hash";
  END LOOP;
END $$;

INSERT INTO "audit_chain_heads" ("contract_id", "seq", "hash")
  SELECT DISTINCT ON ("contract_id") "contract_id", "chain_seq", "chain_hash" FROM "audit_events"
  WHERE "contract_id" IS NOT NULL ORDER BY "contract_id", "chain_seq" DESC;
