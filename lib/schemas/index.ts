// The one zod module of every /v1 request and response shape (docs/api.md): routes parse with it,
// forms validate with it, and lib/openapi/document.ts generates the API reference from it.
export * from "./api-token";
export * from "./audit-event";
export * from "./common";
export * from "./contract";
export * from "./country-codes";
export * from "./data-field";
export * from "./email-message";
export * from "./error";
export * from "./error-code";
export * from "./limits";
export * from "./pagination";
export * from "./participant";
export * from "./party";
export * from "./ping";
export * from "./template";
export * from "./template-list-query";
export * from "./template-type";
export * from "./user";
export * from "./workspace";
export * from "./publish";
export * from "./signing";
export * from "./webhook";
export * from "./dashboard";
export * from "./reminder-settings";
export * from "./seal";
export * from "./document";
