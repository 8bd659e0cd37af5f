// Generated from lib/schemas/endpoints.ts by `npm run generate:client`. Do not edit.
import type { TEndpoints } from "@/lib/schemas/endpoints";

export const ENDPOINT_ROUTES = {
  ping: { method: "GET", path: "/v1/ping" },
  getOpenApiDocument: { method: "GET", path: "/v1/openapi.json" },
  listErrorCodes: { method: "GET", path: "/v1/error_codes" },
  getErrorCode: { method: "GET", path: "/v1/error_codes/{code}" },
  listWorkspaces: { method: "GET", path: "/v1/workspaces" },
  listUsers: { method: "GET", path: "/v1/users" },
  listTemplates: { method: "GET", path: "/v1/templates" },
  getTemplate: { method: "GET", path: "/v1/templates/{template_id}" },
  listTemplateTypes: { method: "GET", path: "/v1/template_types" },
  getTemplateType: { method: "GET", path: "/v1/template_types/{template_type_id}" },
  listContracts: { method: "GET", path: "/v1/contracts" },
  createContract: { method: "POST", path: "/v1/contracts/create" },
  getContract: { method: "GET", path: "/v1/contracts/{contract_id}" },
  deleteContract: { method: "DELETE", path: "/v1/contracts/{contract_id}" },
  publishContract: { method: "POST", path: "/v1/contracts/{contract_id}/publish" },
  getPublishReadiness: { method: "GET", path: "/v1/contracts/{contract_id}/publish_readiness" },
  listParties: { method: "GET", path: "/v1/contracts/{contract_id}/parties" },
  getParty: { method: "GET", path: "/v1/contracts/{contract_id}/parties/{party_id}" },
  getParticipant: { method: "GET", path: "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}" },
  updateParticipant: { method: "PUT", path: "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}" },
  getSigningLink: { method: "GET", path: "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}/signing_link" },
  sendInvitation: { method: "POST", path: "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}/send_invitation" },
  listDataFields: { method: "GET", path: "/v1/contracts/{contract_id}/data_fields" },
  getDataField: { method: "GET", path: "/v1/contracts/{contract_id}/data_fields/{data_field_id}" },
} as const satisfies { [K in keyof TEndpoints]: Pick<TEndpoints[K], "method" | "path"> };
