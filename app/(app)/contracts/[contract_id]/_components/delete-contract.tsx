"use client";

import { useRouter } from "next/navigation";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { RequestError } from "@/lib/client/fetch-json";
import { setFlash } from "@/lib/client/flash";
import type { TContract } from "@/lib/schemas/contract";
import { useDeleteContract } from "./contract-queries";

/** Why the server refused, in words for this dialog. */
function refusal(error: unknown): string {
  if (!(error instanceof RequestError)) return "The contract could not be deleted.";
  if (error.status === 404) return "This contract no longer exists (someone may have deleted it already).";
  if (error.status === 403) return `You may not delete this contract. ${error.message}`;
  if (error.status === 409) return `The contract was not deleted: ${error.message}`;
  return error.message;
}

/** The Delete button and its confirmation; after the deletion the contracts list opens with a status message. */
export function DeleteContract({ contract }: { contract: TContract }) {
  const remove = useDeleteContract(contract.id);
  const router = useRouter();
  return (
    <ConfirmDialog
      buttonText="Delete"
      buttonClassName="rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50"
      title="Delete this contract?"
      description={`“${contract.name}” will be deleted with its parties, participants and data fields. This cannot be undone.`}
      confirmLabel="Delete contract"
      busyLabel="Deleting…"
      busy={remove.isPending || remove.isSuccess}
      error={remove.isError ? refusal(remove.error) : null}
      onOpen={remove.reset}
      onConfirm={() =>
        remove.mutate(undefined, {
          onSuccess: () => {
            setFlash(`Contract “${contract.name}” was deleted.`);
            router.push("/contracts");
          },
        })
      }
    />
  );
}
