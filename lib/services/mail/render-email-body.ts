import type { Tx } from "@/lib/db";
import { EmailRenderError, renderEmailBodies, type TRenderableEmail } from "@/lib/services/mail/render-email-bodies";

/** The rendered body of one message, read from the database as it is now. Throws EmailRenderError. */
export async function renderEmailBody({ db, message }: { db: Tx; message: TRenderableEmail }): Promise<string> {
  const bodies = await renderEmailBodies({ db, messages: [message] });
  const result = bodies[0]!;
  if ("error" in result) throw new EmailRenderError(result.error);
  return result.body;
}
