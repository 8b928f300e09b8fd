/** The day domain's front door (what other folders may use): the day's close: the X report, numbered Z reports, their corrections and CSV. */
export { DayClose } from './day-close.js';
export { storedReport } from './day-report.js';
