import nodemailer, { type Transporter } from "nodemailer";

/** Bounds on one SMTP conversation, so a hung server cannot hold a claim past its lease. */
export const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000, dnsTimeout: 10_000 };

/** An SMTP transport for SMTP_URL, with bounded timeouts. */
export function createSmtpTransport(smtpUrl: string): Transporter {
  return nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS } as Parameters<typeof nodemailer.createTransport>[0]);
}
