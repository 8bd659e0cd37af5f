import { ATTRIBUTE_LABELS, optionLabel, type TOptionField } from "@/components/participant-fields/labels";

type TOption = { name: string; preferred: boolean; required_participant_attributes?: readonly string[] };

/**
 * The values a template offers for one participant option, in the template's order. The preferred
 * one (the default a new participant gets) is marked in words, and so is what an option requires
 * of a participant, since that is what makes the e-mail or phone field mandatory.
 */
export function TemplateOptions({ field, options }: { field: TOptionField; options: readonly TOption[] }) {
  if (options.length === 0) return <span className="text-slate-500">None offered</span>;
  return (
    <ul className="space-y-1">
      {options.map((option) => (
        <li key={option.name}>
          {optionLabel(field, option.name)}
          {option.preferred ? (
            <span className="ml-1.5 whitespace-nowrap rounded bg-blue-100 px-1.5 py-0.5 text-xs font-medium text-blue-800">preferred</span>
          ) : null}
          {option.required_participant_attributes?.length ? (
            <span className="block text-xs text-slate-600">
              needs {option.required_participant_attributes.map((a) => (ATTRIBUTE_LABELS[a] ?? a).toLowerCase()).join(" and ")}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
