/** Dates crossing the IPC contract are real calendar dates, refused with a message naming the field. */
import { describe, expect, it } from 'vitest';
import { ipcContract } from '../../../shared/ipc/contract.js';
import { describeZodError } from '../../../shared/zod-error.js';

describe('IPC dates', () => {
  it('accepts real dates, including 29 February of a leap year', () => {
    expect(ipcContract['takings:report'].request.safeParse({ from: '2026-11-01', to: '2026-11-30' }).success).toBe(true);
    expect(ipcContract['history:search'].request.safeParse({ date: '2028-02-29' }).success).toBe(true);
  });

  it.each(['2026-13-01', '2026-02-30', '2027-02-29', '2026-11-31', '2026-00-10'])(
    'refuses %s with a message that names the field',
    (date) => {
      const history = ipcContract['history:search'].request.safeParse({ date });
      expect(history.success).toBe(false);
      if (!history.success) expect(describeZodError(history.error)).toMatch(/date.*real calendar date/);
      const takings = ipcContract['takings:exportCsv'].request.safeParse({ from: date, to: '2026-12-31' });
      expect(takings.success).toBe(false);
      if (!takings.success) expect(describeZodError(takings.error)).toMatch(/from.*real calendar date/);
    },
  );
});
