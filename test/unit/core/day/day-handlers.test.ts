/** The day:* channels on a real core: who may call them, the audit entry of a close, a double close refused, CSV and print. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TillCore } from '../../../../electron/core/index.js';
import { openUnitCore } from '../../../support/unit-core.js';

let core: TillCore;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ core, close } = await openUnitCore('momo-day-ipc-'));
});
afterAll(() => close());

const refusal = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (error: { code: string; message: string }) => error,
  );

describe('the day:* channels', () => {
  it('are refused to the one-person shop until the owner signs in', async () => {
    expect(await refusal(core.invoke('day:xReport', {}))).toMatchObject({ code: 'FORBIDDEN' });
    await core.invoke('owner:setPin', { pin: '2468' });
    await core.invoke('owner:unlock', { pin: '2468' });
    expect(await core.invoke('day:xReport', {})).toMatchObject({ label: 'X', environment: 'test', totals: { count: 0 } });
  });

  it('close the day once: audited with the Z number; a second close on the same Z is refused', async () => {
    const closed = await core.invoke('day:close', { lastNumber: 0 });
    expect(closed.report).toMatchObject({ label: 'Z-0001', closedBy: 'Owner' });
    expect(await refusal(core.invoke('day:close', { lastNumber: 0 }))).toMatchObject({
      code: 'ALREADY_CLOSED',
      message: expect.stringMatching(/just closed as Z-0001/),
    });
    const { entries } = await core.invoke('audit:list', { action: 'day_close' });
    expect(entries.map((e) => e.detail)).toEqual(['Z-0001 TEST: 0 transactions']);
    expect(await refusal(core.invoke('day:close', { lastNumber: -1 }))).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(await refusal(core.invoke('day:get', { id: 99 }))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('export a Z as CSV and print it, or the X report, through the one print path', async () => {
    const [z] = (await core.invoke('day:list', {})).reports;
    const file = await core.invoke('day:exportCsv', { id: z!.id });
    // Every till numbers its Zs from Z-0001: the file's name says which till's it is, and the CSV whose figures.
    expect(file.filename).toMatch(/^momo-Z-0001-Till-1-TEST-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(file.csv).toContain(
      `scope,Shop total, as received by Till 1 — not to be added to other tills' Zs`.replace(/^scope,(.*)$/, 'scope,"$1"'),
    );
    expect(file.csv).toContain('total,Z-0001 TEST,0,0,0,0.00,0.00,0.00');
    const printed = await core.invoke('day:print', { id: z!.id });
    expect(printed.documents.map((d) => d.title)).toEqual(['Z report Z-0001']);
    expect((await core.invoke('day:print', {})).documents.map((d) => d.title)).toEqual(['X report']);
  });
});
