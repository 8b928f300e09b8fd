/** tills/: what tills call with their token. Others may use createTillApi, EventStreams and publishCommits. */
export { createTillApi, TILL_ROUTES, type TillApiDeps } from './till-api.js';
export { EventStreams, type PublishedEvent, type StreamLimits, type StreamRefusal } from './event-streams.js';
export { publishCommits } from './publish-commits.js';
export { ReadShares } from './read-shares.js';
export { ReadBudget } from './read-budget.js';
