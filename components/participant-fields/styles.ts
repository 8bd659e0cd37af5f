// Tailwind classes the participant editors share, so the wizard and the inline editor look alike.

export function inputClass(invalid: boolean): string {
  return `block w-full rounded-md border bg-white px-3 py-2 text-sm shadow-sm ${invalid ? "border-red-600" : "border-slate-300"}`;
}

export const labelClass = "block text-sm font-medium text-slate-800";
export const hintClass = "mt-1 text-xs text-slate-600";
export const errorClass = "mt-1 text-sm text-red-700";
