import { handleAuthRequest } from "@/lib/api/auth-handler";

// Sign-in, sign-out and session endpoints of the staff web app (better-auth), outside /v1.
export const GET = handleAuthRequest;
export const POST = handleAuthRequest;
