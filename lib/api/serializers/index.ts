// Prisma rows → the /v1 JSON of docs/api.md "Resources". Pure functions over explicit field allowlists; the
// `select`/`include` shapes and row types belong to the services that query them (lib/services/*/…-row.ts).
export * from "./audit-event";
export * from "./contract";
export * from "./data-field";
export * from "./email-message";
export * from "./error-code";
export * from "./participant";
export * from "./party";
export * from "./template";
export * from "./template-type";
export * from "./time";
export * from "./user";
export * from "./workspace";
export * from "./webhook";
export * from "./seal";
