/** The owner's receipt settings: tidy values are kept, bad ones refused naming the field. */
import { describe, expect, it } from 'vitest';
import { validateReceiptSettings } from '../../../../electron/core/printing/receipt-settings-validation.js';
import { DEFAULT_RECEIPT_SETTINGS } from '../../../../shared/receipt/receipt-settings.js';
import { CoreError } from '../../../../electron/core/errors.js';

const field = (patch: Partial<typeof DEFAULT_RECEIPT_SETTINGS>): string | undefined => {
  try {
    validateReceiptSettings({ ...DEFAULT_RECEIPT_SETTINGS, ...patch });
  } catch (error) {
    expect(error).toBeInstanceOf(CoreError);
    return (error as CoreError).field;
  }
  return undefined;
};

describe('receipt settings', () => {
  it('trims, drops empty address lines, upper-cases the tax id', () => {
    const clean = validateReceiptSettings({
      ...DEFAULT_RECEIPT_SETTINGS,
      shopName: ' Ama Stores ',
      address: ' Osu \n\n Accra ',
      taxIdKind: 'tin',
      taxId: ' gha-123456789-0 ',
      printer: 'network',
      host: ' 192.168.1.50 ',
    });
    expect(clean).toMatchObject({ shopName: 'Ama Stores', address: 'Osu\nAccra', taxId: 'GHA-123456789-0', host: '192.168.1.50' });
  });

  it('refuses a bad tax id, phone, too many address lines, a printer address with a scheme or none at all', () => {
    expect(field({ taxIdKind: 'vat', taxId: '12345' })).toBe('taxId');
    expect(field({ phone: 'call me' })).toBe('phone');
    expect(field({ address: 'a\nb\nc\nd' })).toBe('address');
    expect(field({ printer: 'network', host: 'http://192.168.1.50' })).toBe('host');
    expect(field({ printer: 'network', host: '' })).toBe('host');
    expect(field({ printer: 'network', host: 'printer.local' })).toBeUndefined();
    expect(field({ printer: 'none', host: '' })).toBeUndefined();
  });
});
