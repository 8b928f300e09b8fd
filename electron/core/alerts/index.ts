/** The alerts domain's front door (what other folders may use): the owner's alerts, raised by payments and kept until the owner acknowledges them. */
export { Alerts } from './alerts.js';
