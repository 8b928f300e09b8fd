/** The owner-links domain's front door: the till's requests for the owner's phone links on its relay (issue 21). */
export { createLink, listLinks, revokeLink, type RelayAccess } from './owner-links-client.js';
