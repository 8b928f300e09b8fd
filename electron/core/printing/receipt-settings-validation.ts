/** Checks what the owner typed for receipts and the printer; every message names the field and shows a good value. */
import { isIP } from 'node:net';
import type { ReceiptSettings } from '../../../shared/receipt/receipt-settings.js';
import { CoreError } from '../errors.js';

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
/** A GRA TIN (C0012345678: P, C, G, Q or V and ten digits) or a Ghana Card PIN used as TIN (GHA-123456789-0). */
const TAX_ID = /^(?:[PCGQV][0-9]{10}|GHA-[0-9]{9}-[0-9])$/;
const PHONE = /^\+?[0-9][0-9 -]{5,18}$/;

const invalid = (field: string, message: string) => new CoreError('SETTINGS_INVALID', message, field);

export function validateReceiptSettings(input: ReceiptSettings): ReceiptSettings {
  const clean: ReceiptSettings = {
    ...input,
    shopName: input.shopName.trim(),
    address: input.address
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .join('\n'),
    phone: input.phone.trim(),
    taxId: input.taxId.trim().toUpperCase(),
    footer: input.footer.trim(),
    host: input.host.trim(),
    deviceName: input.deviceName.trim(),
  };
  if (clean.address.split('\n').length > 3) throw invalid('address', 'Address: three lines at most, so the receipt stays short.');
  if (clean.phone && !PHONE.test(clean.phone))
    throw invalid('phone', 'Phone: digits and spaces, such as 030 123 4567 or +233 30 123 4567.');
  if (clean.taxIdKind === 'none') clean.taxId = '';
  else if (!TAX_ID.test(clean.taxId))
    throw invalid('taxId', 'Tax id: a GRA TIN such as C0012345678, or a Ghana Card PIN such as GHA-123456789-0.');
  if (clean.printer === 'network') {
    if (!clean.host) throw invalid('host', "Printer address: enter the printer's IP address (such as 192.168.1.50) or its name.");
    if (!isIP(clean.host) && !HOST_NAME.test(clean.host))
      throw invalid(
        'host',
        'Printer address: an IP address such as 192.168.1.50 or a name such as printer.local, without http:// or a port.',
      );
  }
  return clean;
}
