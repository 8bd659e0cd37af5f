// The demo templates' texts (docs/documents.md): plain language, each naming its template's data
// fields by custom_id.
import type { TBody } from "@/lib/domain/contract-document";

export const NDA_BODY: TBody = {
  sections: [
    { heading: "Who this agreement is between", text: "This agreement is between:\n\n{{parties}}\n\nIt starts on {{field.effective_date}}." },
    {
      heading: "1. Why we share information",
      text:
        "We want to talk about working together. To do that, each of us may share information that is not public: plans, prices, customers, designs, source code and the like. In this agreement that is called confidential information.",
    },
    {
      heading: "2. What each of us promises",
      text:
        "The one who receives confidential information will use it only to evaluate and carry out our cooperation, will keep it as safe as their own secrets, and will share it only with employees and advisers who need it and are bound to the same secrecy.\n\nInformation that was already public, that the receiver already had, or that the receiver got lawfully from someone else is not confidential information.",
    },
    {
      heading: "3. How long it lasts",
      text: "This agreement lasts {{field.term}} months from {{field.effective_date}}. The duty of secrecy continues for three years after it ends.",
    },
    {
      heading: "4. Returning information",
      text: "When either of us asks, the other returns or deletes the confidential information they received, and confirms this in writing.",
    },
    { heading: "5. Law and disputes", text: "The law of the country of the first party above applies. Disputes go to the ordinary courts of that country." },
    { heading: "Signatures", text: "Signed electronically by:\n\n{{signatories}}" },
  ],
};

export const SERVICE_AGREEMENT_BODY: TBody = {
  sections: [
    { heading: "The parties", text: "{{parties}}" },
    {
      heading: "1. What is delivered",
      text:
        "The supplier provides the services and goods described in the order attached to this agreement. The total order value is {{field.order_value}}.\n\nDelivery is due on {{field.delivery_date}}. If the supplier sees that a date cannot be kept, they tell the customer at once, with a new date.",
    },
    {
      heading: "2. Payment",
      text: "The customer pays the order value on the terms {{field.payment_terms}}, after delivery and against an invoice. Late payment carries interest as the law allows.",
    },
    {
      heading: "3. Quality and complaints",
      text:
        "The work is done with care and in line with good practice in the trade. The customer reports faults within 30 days of delivery; the supplier then fixes them without charge within a reasonable time.",
    },
    {
      heading: "4. Liability",
      text: "Neither party is liable for indirect loss. Each party's total liability is limited to the order value, except in cases of gross negligence or intent.",
    },
    { heading: "5. Ending the agreement", text: "Either party may end this agreement in writing if the other seriously breaks it and does not put it right within 30 days of being told." },
    { heading: "Signatures", text: "{{signatories}}" },
  ],
};

export const EMPLOYMENT_BODY: TBody = {
  sections: [
    { heading: "Employer and employee", text: "{{parties}}" },
    { heading: "1. Start and form of employment", text: "The employment starts on {{field.start_date}} and runs until further notice. The first six months are a trial period." },
    { heading: "2. Pay", text: "The monthly salary is {{field.salary}} before tax, paid on the 25th of each month. Salary is reviewed once a year." },
    {
      heading: "3. Working time and holidays",
      text: "Working time is 40 hours a week, normally Monday to Friday. The employee has 25 days of paid holiday a year, in addition to public holidays.",
    },
    {
      heading: "4. Confidentiality",
      text: "The employee keeps the employer's business secrets confidential, during the employment and after it ends.",
    },
    {
      heading: "5. Notice",
      text: "After the trial period, either side may end the employment with the notice the law and any collective agreement give, and at least one month.",
    },
    { heading: "Signatures", text: "{{signatories}}" },
  ],
};

export const PURCHASE_ORDER_BODY: TBody = {
  sections: [
    { heading: "Buyer and supplier", text: "{{parties}}" },
    {
      heading: "1. The order",
      text: "Order number: {{field.po_number}}\n\nThe buyer orders the goods listed in the attachment, for a total of {{field.amount}} {{field.currency}}, including delivery and excluding VAT.",
    },
    {
      heading: "2. Delivery",
      text: "The supplier delivers to the buyer's address, packed for safe transport. Risk passes to the buyer when the goods are received and signed for.",
    },
    {
      heading: "3. Invoice and payment",
      text: "The supplier invoices after delivery, quoting order number {{field.po_number}}. The buyer pays within 30 days of a correct invoice.",
    },
    {
      heading: "4. Faults",
      text: "Goods that are faulty or not as ordered may be returned within 14 days. The supplier replaces them or refunds the price, at the buyer's choice.",
    },
    { heading: "Signatures", text: "{{signatories}}" },
  ],
};
