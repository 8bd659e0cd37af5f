-- AlterTable
ALTER TABLE "template_types" ADD COLUMN     "active" BOOLEAN NOT NULL DEFAULT true;
