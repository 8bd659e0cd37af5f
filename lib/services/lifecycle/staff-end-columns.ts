import type { TStaffEnd } from "@/lib/domain/lifecycle";

/** Staff's end (notice, termination) as its columns: the last day (a `date`, midnight UTC to Prisma), or the instant it ended. */
export function staffEndColumns(end: TStaffEnd): { endOn: Date | null; endAt: Date | null } {
  return { endOn: end.endOn === null ? null : new Date(`${end.endOn}T00:00:00.000Z`), endAt: end.endAt };
}
