import type { PrismaClient } from "@/lib/db";
import { fileStore } from "@/lib/services/files/file-store";
import { EmailRenderError } from "@/lib/services/mail/render-email-bodies";

/** What nodemailer attaches: the stored file a message names (the sealed copy), read when it is sent. */
export async function emailAttachments(prisma: PrismaClient, message: { attachmentFileId: number | null }): Promise<{ filename: string; content: Buffer; contentType: string }[]> {
  if (message.attachmentFileId === null) return [];
  const file = await prisma.contractFile.findUnique({ where: { id: message.attachmentFileId }, select: { name: true, contentType: true, storageKey: true } });
  // Gone with its contract: the message cannot be what it says; it fails rather than going without.
  if (!file?.storageKey) throw new EmailRenderError(`cannot attach: file ${message.attachmentFileId} no longer exists`);
  return [{ filename: file.name, content: Buffer.from(await fileStore().read(prisma, file.storageKey)), contentType: file.contentType }];
}
