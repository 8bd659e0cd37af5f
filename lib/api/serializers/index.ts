// Prisma rows → the /v1 JSON of docs/api.md "Resources", for the answers PostgreSQL does not write.
// Pure functions over explicit field allowlists; the `select`/`include` shapes and row types belong
// to the services that query them (lib/services/*/…-row.ts). The contract, party, participant, data
// field and template type answers have one producer each, in SQL (lib/api/json).
export * from "./audit-event";
export * from "./email-message";
export * from "./error-code";
export * from "./template";
export * from "./time";
export * from "./user";
export * from "./workspace";
export * from "./webhook";
export * from "./seal";
export * from "./document";
export * from "./contract-reminder";
export * from "./placement";
