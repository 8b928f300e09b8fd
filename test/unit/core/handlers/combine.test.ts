/** The handlers wing's combined map: every domain's channels once; a channel defined twice is refused by name. */
import { describe, expect, it } from 'vitest';
import { combineHandlers } from '../../../../electron/core/handlers/index.js';

const takings = {
  'takings:report': async () => ({}) as never,
  'takings:exportCsv': async () => ({}) as never,
};
const history = { 'history:search': async () => ({}) as never };

describe('combineHandlers', () => {
  it('keeps every handler of maps whose channels differ', () => {
    const combined = combineHandlers(takings, history);
    expect(Object.keys(combined).sort()).toEqual(['history:search', 'takings:exportCsv', 'takings:report']);
    expect(combined['history:search']).toBe(history['history:search']);
    expect(combined['takings:report']).toBe(takings['takings:report']);
  });

  it('refuses two maps that define the same channel, naming it', () => {
    const again = { 'takings:report': async () => ({}) as never };
    expect(() => combineHandlers(takings, history, again)).toThrow(/takings:report/);
    expect(() => combineHandlers(takings, again)).toThrow('The IPC channel takings:report has a handler in two maps: define it once.');
  });
});
