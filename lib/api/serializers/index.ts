// Prisma rows → the /v1 JSON of spec 2.x. Pure functions over explicit field allowlists; each
// module exports the `select`/`include` shape its serializer needs.
export * from "./contract";
export * from "./data-field";
export * from "./error-code";
export * from "./participant";
export * from "./party";
export * from "./template";
export * from "./template-type";
export * from "./time";
export * from "./user";
export * from "./workspace";
