/** The owner-links domain's front door (what other folders may use): the till's requests for the owner's phone links on its relay, and the shop's time zone sent to them. */
export { createLink, inviteAgain, listLinks, revokeDevice, revokeLink, setLinksTimeZone, type RelayAccess } from './owner-links-client.js';
export { sendLinksTimeZone } from './time-zone.js';
