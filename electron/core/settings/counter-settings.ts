/** The Charge screen's amount rules (entry mode, confirmation bounds): kept in pesewas, shown as wire amounts. */
import { formatAmount, parseAmount } from '../../../shared/money.js';
import type { CounterSettings } from '../../../shared/ipc/contract.js';
import { CoreError } from '../errors.js';
import type { StoredSettings } from './settings-store.js';

export function counterView(stored: StoredSettings['counter']): CounterSettings {
  return {
    amountEntry: stored.amountEntry,
    minimum: formatAmount(stored.minimumPesewas),
    confirmAbove: formatAmount(stored.confirmAbovePesewas),
  };
}

export function counterFromInput(input: CounterSettings): StoredSettings['counter'] {
  const minimumPesewas = parseAmount(input.minimum, { allowZero: true });
  const confirmAbovePesewas = parseAmount(input.confirmAbove);
  if (minimumPesewas >= confirmAbovePesewas) {
    throw new CoreError('SETTINGS_INVALID', 'The smallest usual amount must be below the amount that asks for confirmation.', 'minimum');
  }
  return { amountEntry: input.amountEntry, minimumPesewas, confirmAbovePesewas };
}
