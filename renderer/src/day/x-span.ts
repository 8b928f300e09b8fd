/**
 * An X report reads everything since the last close, which after midnight began on an earlier day: its title
 * never says "today", and when it spans more than one calendar day (the shop's time zone) it says which.
 */
import type { DayReport } from '../../../shared/ipc/contract';
import { dayText, isoDate } from '../format';

export const X_REPORT_TITLE = 'X report (since the last close)';

export function xSpanNote(report: Pick<DayReport, 'kind' | 'openedAt' | 'at'>, timeZone: string): string | null {
  if (report.kind !== 'x' || !report.openedAt) return null;
  const from = isoDate(new Date(report.openedAt), timeZone);
  const to = isoDate(new Date(report.at), timeZone);
  if (from === to) return null;
  return `This X report spans more than one day, ${dayText(from)} to ${dayText(to)}: the day has not been closed since. Close the day to start the next report from zero.`;
}
