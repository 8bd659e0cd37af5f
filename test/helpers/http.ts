import { inject } from "vitest";
import type { PrismaClient } from "@/lib/db";
import { createPrismaClient } from "@/lib/db/pool";
import { TEST_API_TOKEN } from "@/test/helpers/server";

export const baseUrl = () => inject("baseUrl");

export interface ApiCall {
  method?: string;
  /** A value to send as JSON, or a raw string body. */
  body?: unknown;
  token?: string | null;
  /** x-service-user-email; omit for the anonymous admin. */
  email?: string;
  headers?: Record<string, string>;
}

/** Calls the running server the way an external system does. */
export async function api(path: string, call: ApiCall = {}) {
  const headers: Record<string, string> = { accept: "application/json", ...call.headers };
  const token = call.token === undefined ? TEST_API_TOKEN : call.token;
  if (token !== null) headers["x-service-api-token"] = token;
  if (call.email) headers["x-service-user-email"] = call.email;
  let body: string | undefined;
  if (call.body !== undefined) {
    body = typeof call.body === "string" ? call.body : JSON.stringify(call.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(`${baseUrl()}${path}`, { method: call.method ?? (body ? "POST" : "GET"), headers, body });
  const text = await res.text();
  let json: any = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

let prisma: PrismaClient | undefined;
/** A Prisma client on the server's own database, for making test data with the seed factories. */
export function serverDb(): PrismaClient {
  prisma ??= createPrismaClient(inject("databaseUrl"), 2);
  return prisma;
}

/** The demo seed's workspaces (lib/seed/demo.ts) on the server's database, by the names tests use. */
export async function seededWorkspaces() {
  const byName = async (name: string) => (await serverDb().workspace.findFirstOrThrow({ where: { name } })).id;
  return { sales: await byName("Sales"), legal: await byName("Legal Norway"), procurement: await byName("Procurement") };
}
