/** The day's close: `day:*`, in the active environment (TEST and LIVE each have their own Z numbers). */
import { buildDayReportDocument } from '../../../shared/receipt/build-day-report.js';
import type { DayReport } from '../../../shared/ipc/contract.js';
import type { CoreContext } from '../core-context.js';
import type { ChannelsOf, HandlerMap } from '../dispatcher.js';
import { printDocuments } from '../printing/index.js';
import { storedReport } from '../day/index.js';

/** What the day's channels use of the core. */
export type DayDeps = Pick<CoreContext, 'dayClose' | 'settings' | 'signIn' | 'audit' | 'log' | 'printing'>;

export function dayHandlers(ctx: DayDeps): HandlerMap<ChannelsOf<'day'>> {
  const { dayClose } = ctx;
  const active = () => ctx.settings.settings.active;
  const timeZone = () => ctx.settings.settings.timeZone;
  const stored = (id: number): DayReport => storedReport(dayClose.get(active(), id).report);

  return {
    'day:xReport': async () => dayClose.xReport(active(), timeZone()),
    'day:close': async ({ lastNumber }) => {
      const person = ctx.signIn.current();
      const closed = dayClose.close(active(), timeZone(), lastNumber, person);
      ctx.audit.record(person, 'day_close', `${closed.report.label} ${active().toUpperCase()}: ${closed.report.totals.count} transactions`);
      ctx.log.info('day.closed', { environment: active(), number: closed.report.number, count: closed.report.totals.count });
      return closed;
    },
    'day:list': async () => ({ reports: dayClose.list(active()) }),
    'day:get': async ({ id }) => dayClose.view(active(), id),
    'day:exportCsv': async ({ id }) => dayClose.exportCsv(active(), id),
    'day:print': async ({ id }) => {
      const report = id === undefined ? dayClose.xReport(active(), timeZone()) : stored(id);
      const { receipt, tillName } = ctx.settings.settings;
      return printDocuments(ctx, `day:${id ?? 'x'}`, [buildDayReportDocument(report, receipt, tillName)]);
    },
  };
}
