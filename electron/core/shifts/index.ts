/** The shifts domain's front door (what other folders may use): each person's shift and its report. */
export { Shifts, shiftFollower } from './shifts.js';
