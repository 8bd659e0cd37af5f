import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Contracts admin", template: "%s · Contracts admin" },
  description: "Create and manage contracts, parties and participants.",
  icons: { icon: "/icon.svg" },
  // An internal admin app: never in a search engine's index (public/robots.txt says the same).
  robots: { index: false, follow: false },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
