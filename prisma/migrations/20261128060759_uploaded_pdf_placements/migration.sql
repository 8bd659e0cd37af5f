-- CreateEnum
CREATE TYPE "placement_kind" AS ENUM ('signature', 'name', 'date_signed', 'data_field');

-- AlterTable
ALTER TABLE "contract_files" ADD COLUMN     "pages" INTEGER;

-- CreateTable
CREATE TABLE "placements" (
    "id" SERIAL NOT NULL,
    "contract_id" INTEGER NOT NULL,
    "kind" "placement_kind" NOT NULL,
    "participant_id" INTEGER,
    "data_field_id" INTEGER,
    "page" INTEGER NOT NULL,
    "x" DOUBLE PRECISION NOT NULL,
    "y" DOUBLE PRECISION NOT NULL,
    "width" DOUBLE PRECISION NOT NULL,
    "height" DOUBLE PRECISION NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "placements_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "placements_contract_id_id_idx" ON "placements"("contract_id", "id");

-- CreateIndex
CREATE INDEX "placements_participant_id_idx" ON "placements"("participant_id");

-- CreateIndex
CREATE INDEX "placements_data_field_id_idx" ON "placements"("data_field_id");

-- AddForeignKey
ALTER TABLE "placements" ADD CONSTRAINT "placements_contract_id_fkey" FOREIGN KEY ("contract_id") REFERENCES "contracts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "placements" ADD CONSTRAINT "placements_participant_id_fkey" FOREIGN KEY ("participant_id") REFERENCES "participants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "placements" ADD CONSTRAINT "placements_data_field_id_fkey" FOREIGN KEY ("data_field_id") REFERENCES "contract_data_fields"("id") ON DELETE CASCADE ON UPDATE CASCADE;
