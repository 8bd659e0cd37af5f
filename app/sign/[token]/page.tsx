import type { Metadata } from "next";
import { SigningPage } from "./signing-page";

export const metadata: Metadata = { title: "Your contract", robots: { index: false, follow: false } };

// A participant's page, opened from their invitation: no staff session; the link is the credential.
export default async function SignPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-10">
      <SigningPage token={token} />
    </main>
  );
}
