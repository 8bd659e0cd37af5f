-- AlterTable
ALTER TABLE "templates" ADD COLUMN     "body" JSONB NOT NULL DEFAULT '{"sections":[]}';

-- AlterTable
ALTER TABLE "contracts" ADD COLUMN     "body" JSONB NOT NULL DEFAULT '{"sections":[]}';

-- CreateEnum
CREATE TYPE "contract_file_type" AS ENUM ('contract', 'attachment', 'verification');

-- CreateTable
CREATE TABLE "contract_files" (
    "id" SERIAL NOT NULL,
    "contract_id" INTEGER NOT NULL,
    "type" "contract_file_type" NOT NULL,
    "name" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size" INTEGER,
    "sha256" TEXT,
    "storage_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contract_files_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "file_chunks" (
    "storage_key" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "file_chunks_pkey" PRIMARY KEY ("storage_key","seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "contract_files_storage_key_key" ON "contract_files"("storage_key");

-- CreateIndex
CREATE INDEX "contract_files_contract_id_id_idx" ON "contract_files"("contract_id", "id");

-- AddForeignKey
ALTER TABLE "contract_files" ADD CONSTRAINT "contract_files_contract_id_fkey" FOREIGN KEY ("contract_id") REFERENCES "contracts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_chunks" ADD CONSTRAINT "file_chunks_storage_key_fkey" FOREIGN KEY ("storage_key") REFERENCES "contract_files"("storage_key") ON DELETE CASCADE ON UPDATE CASCADE;

-- Not in the Prisma schema (it cannot express it): the one `contract` file (the rendered PDF)
-- every contract has, however the contract row is written.
CREATE UNIQUE INDEX "contract_files_one_contract_pdf" ON "contract_files"("contract_id") WHERE "type" = 'contract';

CREATE FUNCTION contract_files_add_contract_pdf() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contract_files (contract_id, type, name, content_type, created_at)
  VALUES (NEW.id, 'contract', 'contract', 'application/pdf', NEW.created_at);
  RETURN NULL;
END $$;

CREATE TRIGGER contract_files_add_contract_pdf AFTER INSERT ON contracts
  FOR EACH ROW EXECUTE FUNCTION contract_files_add_contract_pdf();

-- Backfill: every existing contract gets its contract file.
INSERT INTO contract_files (contract_id, type, name, content_type, created_at)
SELECT id, 'contract', 'contract', 'application/pdf', created_at FROM contracts;
