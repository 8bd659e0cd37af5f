// A data field's value, as the contract reads it.

/**
 * Whether a data field has a value: text other than white space. A value is kept as typed
 * (docs/api.md "Data field values"), but one of spaces alone fills nothing: the text, a PDF's box
 * and the contract page all show it as missing.
 */
export const hasValue = (value: string): boolean => value.trim() !== "";
