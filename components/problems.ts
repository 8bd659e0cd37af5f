// The API's and the shared schemas' problems in words for the person at the form (docs/web-app.md
// "Messages"): one message per problem, next to its field, as a sentence; no field paths, an
// attribute or option named as the form names it, and never the same sentence twice.
import { ATTRIBUTE_LABELS, DELIVERY_CHANNEL_LABELS, SIGN_METHOD_LABELS, TWO_STEP_METHOD_LABELS } from "@/components/participant-fields/labels";

const VALUE_LABELS: Record<string, string> = { ...SIGN_METHOD_LABELS, ...TWO_STEP_METHOD_LABELS, ...DELIVERY_CHANNEL_LABELS };

/** API words made plain: "required when delivery_channel is sms" → "required when the delivery channel is SMS". */
function plainWords(message: string): string {
  return message
    .replace(/"?contract:update"? permission/g, "permission to update the contract")
    .replace(/\b(is|are|or|and|not) ([a-z]+(?:_[a-z]+)*)\b/g, (all, word: string, value: string) => (VALUE_LABELS[value] ? `${word} ${VALUE_LABELS[value]}` : all))
    .replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (name) => (ATTRIBUTE_LABELS[name] ? `the ${ATTRIBUTE_LABELS[name].toLowerCase()}` : name));
}

/** A message as a sentence: plain words, a capital first letter and a full stop. */
export function asSentence(message: string): string {
  const text = plainWords(message.trim());
  if (!text) return text;
  const capital = text[0]!.toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** The one message a field shows: the first of the problems with it (the rest say the same another way, or follow from it). */
export function fieldProblem(messages: readonly string[] | undefined): string | undefined {
  const first = messages?.find((m) => m.trim() !== "");
  return first === undefined ? undefined : asSentence(first);
}

/** A problem shown away from its field, named by the field's label: "E-mail must be a valid e-mail address." */
export function labelledProblem(label: string, message: string): string {
  const text = message.trim();
  // A message with its own subject ("a signatory must …") is a sentence already.
  if (!/^[a-z]/.test(text) || /^(a|an|the) /.test(text)) return asSentence(text);
  // "required when …" reads as a sentence once it has its verb.
  return asSentence(/^(required|not |only |too )/.test(text) ? `${label} is ${text}` : `${label} ${text}`);
}
