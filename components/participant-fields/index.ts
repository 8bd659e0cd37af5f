export * from "./labels";
export * from "./option-select";
export * from "./styles";
export * from "./text-fields";
export * from "./countries";
export * from "./party-details";
