import { ZDeclineRequestSchema } from "@/lib/schemas/signing";
import { decisionRoute } from "../decision-route";

export const { POST, GET, PUT, PATCH, DELETE } = decisionRoute("/api/sign/{token}/decline", (body) => {
  const { reason, code } = ZDeclineRequestSchema.parse(body);
  return { kind: "decline", reason, code };
});
