import type { TContractFileType } from "@/lib/domain/contract-document";
import type { Prisma } from "@/lib/generated/prisma/client";

export const CONTRACT_FILE_SELECT = {
  id: true,
  contractId: true,
  type: true,
  name: true,
  contentType: true,
  size: true,
  sha256: true,
  storageKey: true,
  pages: true,
  createdAt: true,
} as const satisfies Prisma.ContractFileSelect;

export type TContractFileRow = Prisma.ContractFileGetPayload<{ select: typeof CONTRACT_FILE_SELECT }> & { type: TContractFileType };
