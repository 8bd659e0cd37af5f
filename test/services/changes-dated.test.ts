// Every change is dated by the product's clock (`now()` of lib/clock.ts), so a change made under
// `atTime` (the demo seed, tests of time) writes that instant into every row it touches. A service
// that read `new Date()` would write the real time here instead.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import { atTime } from "@/lib/clock";
import { loadUserActor } from "@/lib/api/auth";
import { createContract, createTemplate, createUser, createWorkspace } from "@/lib/db/seed/factories";
import type { TUserActor } from "@/lib/domain/actor";
import { createApiToken } from "@/lib/services/api-tokens/create-api-token";
import { revokeApiToken } from "@/lib/services/api-tokens/revoke-api-token";
import { updateContractBody } from "@/lib/services/contracts/update-contract-body";
import { createParticipant } from "@/lib/services/participants/create-participant";
import { deleteParticipant } from "@/lib/services/participants/delete-participant";
import { updateParticipant } from "@/lib/services/participants/update-participant";
import { createParty } from "@/lib/services/parties/create-party";
import { deleteAttachment } from "@/lib/services/files/delete-attachment";
import { uploadAttachment } from "@/lib/services/files/upload-attachment";
import { uploadContractPdf } from "@/lib/services/files/upload-contract-pdf";
import { createPlacement } from "@/lib/services/placements/create-placement";
import { deletePlacement } from "@/lib/services/placements/delete-placement";
import { updatePlacement } from "@/lib/services/placements/update-placement";
import { deleteParty } from "@/lib/services/parties/delete-party";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";

let db: TestDatabase;
let admin: TUserActor;
let contractId: number;

beforeAll(async () => {
  db = await createTestDatabase();
  const ws = await createWorkspace(db.prisma, { name: "Dated" });
  const template = await createTemplate(db.prisma, { workspaceIds: [ws.id] });
  const user = await createUser(db.prisma, { isAdmin: true });
  admin = (await loadUserActor(db.prisma, user, { via: "session", apiTokenId: null }))! as TUserActor;
  contractId = (await createContract(db.prisma, { workspaceId: ws.id, templateId: template.id, name: "Dated deal", counterparties: [] })).id;
});
afterAll(() => db.cleanup());

const updatedAt = async () => (await db.prisma.contract.findUniqueOrThrow({ where: { id: contractId } })).updatedAt.toISOString();

describe("a change under atTime", () => {
  it("dates its rows (and the contract's last change, where it counts as one) at that instant, for each kind of change to a draft", async () => {
    const at = (iso: string) => new Date(iso);
    const party = await atTime(at("2025-01-02T10:00:00.000Z"), () =>
      createParty({ db: db.prisma, actor: admin, contractId, request: { type: "company", name: "Dated AB", country_code: "SE", identification_number: "", participants: [{ name: "Ada Date", email: "ada@dated.example" }] } as never }),
    );
    expect([party.createdAt.toISOString(), await updatedAt()]).toEqual(["2025-01-02T10:00:00.000Z", "2025-01-02T10:00:00.000Z"]);

    const added = await atTime(at("2025-01-03T10:00:00.000Z"), () =>
      createParticipant({ db: db.prisma, actor: admin, contractId, partyId: party.id, request: { name: "Bo Date", email: "bo@dated.example" } as never }),
    );
    expect([added.createdAt.toISOString(), await updatedAt()]).toEqual(["2025-01-03T10:00:00.000Z", "2025-01-03T10:00:00.000Z"]);

    const changed = await atTime(at("2025-01-04T10:00:00.000Z"), () =>
      updateParticipant({ db: db.prisma, actor: admin, contractId, partyId: party.id, participantId: added.id, changes: { title: "Buyer" } }),
    );
    expect([changed.participant.updatedAt.toISOString(), await updatedAt()]).toEqual(["2025-01-04T10:00:00.000Z", "2025-01-04T10:00:00.000Z"]);

    await atTime(at("2025-01-05T10:00:00.000Z"), () => deleteParticipant({ db: db.prisma, actor: admin, contractId, partyId: party.id, participantId: added.id }));
    expect(await updatedAt()).toBe("2025-01-05T10:00:00.000Z");

    await atTime(at("2025-01-06T10:00:00.000Z"), () => updateContractBody({ db: db.prisma, actor: admin, contractId, request: { body: { sections: [{ heading: "Dates", text: "Dated text." }] } as never } }));
    expect(await updatedAt()).toBe("2025-01-06T10:00:00.000Z");

    await atTime(at("2025-01-07T10:00:00.000Z"), () => deleteParty({ db: db.prisma, actor: admin, contractId, partyId: party.id }));
    expect(await updatedAt()).toBe("2025-01-07T10:00:00.000Z");
  });

  it("moves the contract's last change with each change of its files and of the boxes on its PDF", async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage();
    const bytes = Buffer.from(await pdf.save());
    const party = await createParty({ db: db.prisma, actor: admin, contractId, request: { type: "company", name: "Boxed AB", country_code: "SE", identification_number: "", participants: [{ name: "Cy Box", email: "cy@boxed.example", signatory: true }] } as never });
    const cy = await db.prisma.participant.findFirstOrThrow({ where: { partyId: party.id } });
    // Each change at its own instant, and the contract's `updated_time` is that instant after it.
    const dated = async <T>(iso: string, change: () => Promise<T>): Promise<T> => {
      const result = await atTime(new Date(iso), change);
      expect([iso, await updatedAt()]).toEqual([iso, iso]);
      return result;
    };
    await dated("2025-03-01T09:00:00.000Z", () => uploadContractPdf({ db: db.prisma, actor: admin, contractId, name: "own.pdf", bytes }));
    const placed = await dated("2025-03-02T09:00:00.000Z", () =>
      createPlacement({ db: db.prisma, actor: admin, contractId, request: { kind: "signature", participant_id: cy.id, page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.06 } }),
    );
    await dated("2025-03-03T09:00:00.000Z", () => updatePlacement({ db: db.prisma, actor: admin, contractId, placementId: placed.id, request: { x: 0.2 } }));
    // The same box again writes nothing: the contract keeps the last instant.
    await atTime(new Date("2025-03-03T12:00:00.000Z"), () => updatePlacement({ db: db.prisma, actor: admin, contractId, placementId: placed.id, request: { x: 0.2 } }));
    expect(await updatedAt()).toBe("2025-03-03T09:00:00.000Z");
    await dated("2025-03-04T09:00:00.000Z", () => deletePlacement({ db: db.prisma, actor: admin, contractId, placementId: placed.id }));
    const attachment = await dated("2025-03-05T09:00:00.000Z", () => uploadAttachment({ db: db.prisma, actor: admin, contractId, name: "terms.pdf", bytes }));
    await dated("2025-03-06T09:00:00.000Z", () => deleteAttachment({ db: db.prisma, actor: admin, contractId, fileId: attachment.id }));
  });

  it("dates a token's revocation at that instant", async () => {
    const { apiToken } = await createApiToken({ db: db.prisma, actor: admin, name: "dated" });
    const revoked = await atTime(new Date("2025-02-01T08:00:00.000Z"), () => revokeApiToken({ db: db.prisma, actor: admin, id: apiToken.id }));
    expect(revoked.revokedAt?.toISOString()).toBe("2025-02-01T08:00:00.000Z");
  });
});
