/**
 * The network the cashier charged, as the payment's echoed metadata names it: a TEST result says "SANDBOX" on
 * the wire whatever the customer's network, and only the till that started a payment has it in its payments
 * table, so the shop's other tills counted another till's TEST payments under "Sandbox (test)". NULL for a
 * result whose metadata names none (sent before this version, or by another system): it keeps the service's.
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 22,
  name: 'charged network of results',
  up: `
    ALTER TABLE transactions ADD COLUMN charged_network TEXT;
  `,
};
