import { redirect } from "next/navigation";
import { getCurrentSessionUser } from "@/lib/auth/require-session";

// The app has no public landing page: signed-in staff go to their dashboard, others sign in.
export default async function HomePage() {
  redirect((await getCurrentSessionUser()) ? "/dashboard" : "/sign-in");
}
