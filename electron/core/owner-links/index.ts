/** The owner-links domain's front door: the till's requests for the owner's phone links on its relay (issue 21). */
export { createLink, listLinks, revokeLink, setLinksTimeZone, type RelayAccess } from './owner-links-client.js';
export { sendLinksTimeZone } from './time-zone.js';
