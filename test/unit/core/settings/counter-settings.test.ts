/** The counter's amount rules: cedis first by default, older settings files get the defaults, bounds are checked. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { counterFromInput, counterView } from '../../../../electron/core/settings/counter-settings.js';
import { CoreError } from '../../../../electron/core/errors.js';
import { createMemorySecretStore } from '../../../../electron/core/storage/secret-store.js';
import { SettingsStore } from '../../../../electron/core/settings/settings-store.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'momo-counter-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const open = () => new SettingsStore(dir, createMemorySecretStore(), { tillName: 'Till 1', timeZone: 'Africa/Accra' });

describe('counter settings', () => {
  it('default to cedis first, confirming below GH₵1.00 and above GH₵1,000.00', () => {
    expect(counterView(open().settings.counter)).toEqual({ amountEntry: 'cedis', minimum: '1.00', confirmAbove: '1000.00' });
  });

  it('a settings file written before they existed gets the defaults', () => {
    open();
    const file = join(dir, 'settings.json');
    const { counter: _dropped, ...older } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify(older));
    expect(open().settings.counter).toEqual({ amountEntry: 'cedis', minimumPesewas: 100, confirmAbovePesewas: 100_000 });
  });

  it('are kept in pesewas and read back', () => {
    const store = open();
    store.update({ counter: counterFromInput({ amountEntry: 'pesewas', minimum: '0.50', confirmAbove: '250.00' }) });
    expect(open().settings.counter).toEqual({ amountEntry: 'pesewas', minimumPesewas: 50, confirmAbovePesewas: 25_000 });
  });

  it('refuse a minimum at or above the confirmation amount, naming the field', () => {
    expect(() => counterFromInput({ amountEntry: 'cedis', minimum: '5.00', confirmAbove: '5.00' })).toThrow(CoreError);
    try {
      counterFromInput({ amountEntry: 'cedis', minimum: '9.00', confirmAbove: '5.00' });
    } catch (error) {
      expect((error as CoreError).field).toBe('minimum');
    }
  });
});
