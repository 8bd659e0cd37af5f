"use client";

import { boxStyle, PdfPages } from "@/components/pdf-pages/pdf-pages";
import type { TSigningPageView } from "@/lib/schemas/signing";

type TSigningPdf = NonNullable<TSigningPageView["uploaded_pdf"]>;

const MY_WORDS: Record<string, string> = { signature: "Sign here", name: "Your name", date_signed: "The date you sign" };
const OTHER_WORDS: Record<string, string> = { signature: "Another signature", name: "A name", date_signed: "A date", data_field: "Filled in" };

/** The id of the first of this signer's signature boxes: where "Go to my signature box" leads. */
export const MY_SIGNATURE_BOX_ID = "my-signature-box";

/**
 * The uploaded PDF the participant signs, page by page, with the boxes staff placed: theirs marked
 * (a signature box says "Sign here"), everyone else's faint. Their name and the date go into the
 * boxes when the copy is sealed.
 */
export function SigningPdf({ pdf }: { pdf: TSigningPdf }) {
  const firstMine = pdf.boxes.findIndex((box) => box.mine && box.kind === "signature");
  const firstMinePage = firstMine >= 0 ? pdf.boxes[firstMine]!.page : null;
  return (
    <div className="mt-3">
      {firstMinePage !== null ? (
        <p className="mb-3 text-sm">
          <a href={`#${MY_SIGNATURE_BOX_ID}`} className="font-medium text-blue-700 underline">
            Go to my signature box
          </a>{" "}
          <span className="text-slate-600">(page {firstMinePage})</span>
        </p>
      ) : null}
      <PdfPages
        src={pdf.href}
        pageCount={pdf.pages}
        downloadHref={pdf.href}
        overlay={(page) =>
          pdf.boxes.map((box, i) =>
            box.page !== page ? null : box.mine ? (
              <div
                key={i}
                id={i === firstMine ? MY_SIGNATURE_BOX_ID : undefined}
                tabIndex={i === firstMine ? -1 : undefined}
                className={`absolute flex scroll-mt-24 items-center justify-center overflow-hidden rounded-sm border-2 px-1 text-center text-xs font-semibold leading-tight focus:outline-none focus:ring-2 focus:ring-blue-600 ${
                  box.kind === "signature" ? "animate-none border-amber-600 bg-amber-100/80 text-amber-950 shadow-[0_0_0_3px_rgba(217,119,6,0.35)]" : "border-amber-500 bg-amber-50/70 text-amber-900"
                }`}
                style={boxStyle(box)}
              >
                {MY_WORDS[box.kind] ?? "Yours"}
              </div>
            ) : (
              <div
                key={i}
                aria-hidden="true"
                className="absolute overflow-hidden rounded-sm border border-dashed border-slate-400 bg-slate-100/40 px-1 text-[10px] leading-tight text-slate-500"
                style={boxStyle(box)}
              >
                {OTHER_WORDS[box.kind] ?? ""}
              </div>
            ),
          )
        }
      />
    </div>
  );
}
