import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getPrisma } from "@/lib/db";
import { isLiveSigningLink } from "@/lib/services/signing/is-live-signing-link";
import { SigningPage } from "./signing-page";

export const metadata: Metadata = { title: "Your contract", robots: { index: false, follow: false } };

// A participant's page, opened from their invitation: no staff session; the link is the credential.
// A dead or unknown link answers 404 from the server (its not-found page, no contract data), not a
// page shell that finds out in the browser.
export default async function SignPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  if (!(await isLiveSigningLink({ db: await getPrisma(), token }))) notFound();
  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-10">
      <SigningPage token={token} />
    </main>
  );
}
