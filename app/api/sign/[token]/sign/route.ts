import { ZSignRequestSchema } from "@/lib/schemas/signing";
import { decisionRoute } from "../decision-route";

export const { POST, GET, PUT, PATCH, DELETE } = decisionRoute("/api/sign/{token}/sign", (body) => {
  const { full_name, code } = ZSignRequestSchema.parse(body);
  return { kind: "sign", fullName: full_name, code };
});
