// Reads an iCalendar text back with ical.js (a real parser, Mozilla's), for the feed's tests.
import ICAL from "ical.js";

export interface TParsedEvent {
  uid: string;
  summary: string;
  /** `YYYY-MM-DD` of an all-day event's DTSTART. */
  date: string;
  allDay: boolean;
  url: string;
  description: string;
}

export function parseIcs(text: string): { name: string; events: TParsedEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const events = calendar.getAllSubcomponents("vevent").map((component) => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      summary: event.summary,
      date: event.startDate.toString(),
      allDay: event.startDate.isDate,
      url: String(component.getFirstPropertyValue("url") ?? ""),
      description: event.description,
    };
  });
  return { name: String(calendar.getFirstPropertyValue("x-wr-calname") ?? calendar.getFirstPropertyValue("name") ?? ""), events };
}
