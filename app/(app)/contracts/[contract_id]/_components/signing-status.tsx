"use client";

import { useState } from "react";
import { RelativeTime } from "@/components/relative-time";
import { RequestError } from "@/lib/client/fetch-json";
import type { TParticipant } from "@/lib/schemas/participant";
import { saveErrorMessage, useUpdateParticipant } from "./contract-queries";
import { fetchSigningLink, useSendInvitation } from "./lifecycle-queries";

const DELIVERY_WORDS: Record<TParticipant["delivery_status"], string> = {
  not_sent: "Not sent",
  pending: "Invitation on its way",
  success: "Invitation delivered to the mail server",
  opened: "Opened the link",
  failure: "Could not be delivered",
  bounce: "Bounced",
};

/**
 * How staff hand a new link to a participant the app sends no mail to (docs/web-app.md "Publishing"):
 * the deployment has no SMS provider, and a same-device signer signs on the staff member's device.
 */
function handoverWords(participant: TParticipant): string {
  switch (participant.delivery_channel) {
    case "sms":
      return `No SMS is sent by this deployment: send it to ${participant.phone_number || "their phone"} in a text message of your own.`;
    case "same_device":
      return "They sign on this device: open the link here and hand the device to them.";
    default:
      return "No message is sent to them: hand it to them yourself.";
  }
}

/** A participant of a pending contract: how far their invitation got, their link, and sending it again. */
export function SigningStatus({ contractId, partyId, participant, actions }: { contractId: number; partyId: number; participant: TParticipant; actions: boolean }) {
  const ref = { contractId, partyId, participantId: participant.id };
  const send = useSendInvitation(ref);
  const [link, setLink] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const byEmail = participant.delivery_channel === "email" || participant.delivery_channel === "email_and_sms";
  const locked = participant._private_ownerside.two_step_locked_time;

  /** Shows the current link and copies it; `before` leads the note (after a new link is made). */
  async function copyLink(before = "") {
    setNote(null);
    try {
      const { url } = await fetchSigningLink(ref);
      setLink(url);
      try {
        await navigator.clipboard.writeText(url);
        setNote(`${before}Link copied. It is personal: share it only with this participant.`);
      } catch {
        setNote(`${before}Copy the link below. It is personal: share it only with this participant.`);
      }
    } catch (error) {
      setNote(error instanceof RequestError ? error.message : "Could not get the link.");
    }
  }

  function sendAgain() {
    setLink(null);
    send.mutate(undefined, {
      onSuccess: () =>
        byEmail
          ? setNote("Invitation queued again, with a new link; the old link no longer works.")
          : void copyLink(`A new link was made; the old one no longer works. ${handoverWords(participant)} `),
    });
  }

  return (
    <div className="mt-3 rounded-md bg-slate-50 p-3 text-sm" aria-label={`Signing status of ${participant.name}`} role="group">
      <p>
        <span className="font-medium text-slate-700">Delivery: </span>
        <span>{DELIVERY_WORDS[participant.delivery_status]}</span>
        {participant.delivery_channel === "sms" || participant.delivery_channel === "email_and_sms" ? (
          <span className="text-slate-600"> (SMS cannot be sent by this deployment; share the link another way)</span>
        ) : null}
      </p>
      {participant._private_ownerside.delivery_failed_time && participant.sign_state === "undecided" ? (
        <DeliveryFailure contractId={contractId} partyId={partyId} participant={participant} actions={actions && byEmail} />
      ) : null}
      {locked && participant.sign_state === "undecided" ? (
        <p className="mt-1 rounded bg-amber-50 p-2 text-amber-900">
          <span className="font-medium">Signing locked: </span>
          too many wrong codes were typed with this participant&apos;s link (<RelativeTime iso={locked} />).{" "}
          {byEmail
            ? "Check with them that it was them, then send the invitation again: they get a new link, and the old one stops working."
            : "Check with them that it was them, then make a new link and hand it to them: they get no e-mail, and the old link stops working."}
        </p>
      ) : null}
      {participant.sign_state_updated_time && participant.sign_state !== "undecided" ? (
        <p>
          <span className="font-medium text-slate-700">{participant.sign_state === "signed" ? "Signed " : "Declined "}</span>
          <RelativeTime iso={participant.sign_state_updated_time} />
        </p>
      ) : null}
      {actions && participant.sign_state === "undecided" ? (
        <div className="mt-2 flex flex-wrap gap-2">
          <button type="button" onClick={() => void copyLink()} className="rounded-md border border-slate-300 bg-white px-3 py-1 font-medium text-slate-800 hover:bg-slate-100">
            Copy signing link
          </button>
          <button
            type="button"
            onClick={sendAgain}
            disabled={send.isPending}
            className="rounded-md border border-slate-300 bg-white px-3 py-1 font-medium text-slate-800 hover:bg-slate-100 disabled:opacity-50"
          >
            {byEmail ? (locked ? "Unlock: send a new invitation" : "Send again") : locked ? "Unlock: make a new link" : "Make a new link"}
          </button>
        </div>
      ) : null}
      {link ? <input readOnly value={link} aria-label={`Signing link of ${participant.name}`} className="mt-2 w-full rounded border border-slate-300 bg-white px-2 py-1 font-mono text-xs" onFocus={(e) => e.currentTarget.select()} /> : null}
      {note ? <p role="status" className="mt-1 text-slate-700">{note}</p> : null}
      {send.error ? <p role="alert" className="mt-1 text-red-800">{send.error.message}</p> : null}
    </div>
  );
}

/**
 * The invitation failed for good: the mail server's words, and (for staff who may change the
 * contract) the address to correct and send to in one step: a new address is saved (which sends the
 * invitation, with a new link, to it), the same address is sent again. Either clears the failure.
 */
function DeliveryFailure({ contractId, partyId, participant, actions }: { contractId: number; partyId: number; participant: TParticipant; actions: boolean }) {
  const [email, setEmail] = useState(participant.email);
  const update = useUpdateParticipant(contractId);
  const send = useSendInvitation({ contractId, partyId, participantId: participant.id });
  const busy = update.isPending || send.isPending;
  const inputId = `delivery-fix-${participant.id}`;
  const problem = update.error ? saveErrorMessage(update.error, "email") : send.error ? send.error.message : null;
  const { delivery_failed_time: failedAt, delivery_failure: reason } = participant._private_ownerside;
  return (
    <div className="mt-1 rounded bg-red-50 p-2 text-red-900">
      <p>
        <span className="font-medium">The invitation to {participant.email} could not be delivered</span> (<RelativeTime iso={failedAt!} />).
      </p>
      <p className="mt-1">The mail server said: {reason || "no reason given"}</p>
      {actions ? (
        <form
          className="mt-2 flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            const address = email.trim();
            if (address === participant.email) send.mutate();
            else update.mutate({ partyId, participantId: participant.id, changes: { email: address } });
          }}
        >
          <div>
            <label htmlFor={inputId} className="block font-medium">
              E-mail address
            </label>
            <input
              id={inputId}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${inputId}-problem` : undefined}
              className="mt-1 w-72 max-w-full rounded border border-slate-300 bg-white px-2 py-1 text-slate-900"
            />
          </div>
          <button type="submit" disabled={busy} className="rounded-md bg-blue-700 px-3 py-1.5 font-semibold text-white hover:bg-blue-800 disabled:opacity-50">
            {email.trim() === participant.email ? "Send to this address again" : "Save and send"}
          </button>
          {problem ? (
            <p id={`${inputId}-problem`} className="w-full text-red-800">
              {problem}
            </p>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}
