/** The relay-link domain's front door (what other folders may use): the till's live link to its relay: the SSE client, its cursor and one connection per environment. */
export { RelayConnections } from './relay-connections.js';
export type { RelayTuning } from './relay-connections.js';
