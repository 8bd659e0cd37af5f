import { CODE_PLACEHOLDER, MASKED_CODE, MASKED_SIGNING_LINK, SIGNING_LINK_PLACEHOLDER } from "@/lib/services/mail/render-email-bodies";

/** The body with both placeholders replaced by their masks (nothing derived). */
export function maskEmailBody(body: string): string {
  return body.replaceAll(SIGNING_LINK_PLACEHOLDER, MASKED_SIGNING_LINK).replaceAll(CODE_PLACEHOLDER, MASKED_CODE);
}
