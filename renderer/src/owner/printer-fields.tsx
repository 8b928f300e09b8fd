/** Which printer, where it is, and whether a PAID sale prints by itself. */
import { useEffect, useState } from 'react';
import type { IpcResponse } from '../../../shared/ipc/contract';
import type { PrinterKind } from '../../../shared/receipt/receipt-settings';
import { call } from '../api';
import { FieldError } from '../components/field-error';

export type PrinterValues = { printer: PrinterKind; host: string; port: string; deviceName: string; autoPrint: boolean };

type Props = {
  values: PrinterValues;
  onChange: (patch: Partial<PrinterValues>) => void;
  blamed: { field: string; text: string } | null;
};

const KINDS: Array<[PrinterKind, string]> = [
  ['none', 'None: the screen only (the browser print view on request)'],
  ['network', 'Network thermal printer (ESC/POS over Ethernet or Wi-Fi)'],
  ['system', 'A printer installed on this computer'],
];

export function PrinterFields({ values, onChange, blamed }: Props) {
  const [printers, setPrinters] = useState<IpcResponse<'printer:list'>['printers']>([]);
  useEffect(() => {
    if (values.printer !== 'system') return;
    call('printer:list', {}).then(
      (r) => setPrinters(r.printers),
      () => setPrinters([]),
    );
  }, [values.printer]);
  const error = (field: string) => (blamed?.field === field ? blamed.text : null);
  const describedBy = (field: string) => (blamed?.field === field ? `receipt-${field}-error` : undefined);

  return (
    <fieldset className="printer-fields">
      <legend>Printer</legend>
      {KINDS.map(([kind, label]) => (
        <label key={kind} className="check">
          <input type="radio" name="printer-kind" checked={values.printer === kind} onChange={() => onChange({ printer: kind })} />
          {label}
        </label>
      ))}
      {values.printer === 'network' ? (
        <div className="env-grid">
          <div className="field">
            <label htmlFor="receipt-host">Printer address (IP or name)</label>
            <input
              id="receipt-host"
              placeholder="192.168.1.50"
              spellCheck={false}
              value={values.host}
              aria-invalid={error('host') ? true : undefined}
              aria-describedby={describedBy('host')}
              onChange={(e) => onChange({ host: e.target.value })}
            />
            <FieldError id="receipt-host-error" message={error('host')} />
          </div>
          <div className="field">
            <label htmlFor="receipt-port">Port (9100 on most printers)</label>
            <input
              id="receipt-port"
              inputMode="numeric"
              value={values.port}
              aria-invalid={error('port') ? true : undefined}
              aria-describedby={describedBy('port')}
              onChange={(e) => onChange({ port: e.target.value })}
            />
            <FieldError id="receipt-port-error" message={error('port')} />
          </div>
        </div>
      ) : null}
      {values.printer === 'system' ? (
        <div className="field">
          <label htmlFor="receipt-device">Printer</label>
          <select id="receipt-device" value={values.deviceName} onChange={(e) => onChange({ deviceName: e.target.value })}>
            <option value="">The computer&apos;s default printer</option>
            {printers.map((p) => (
              <option key={p.name} value={p.name}>
                {p.displayName}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <label className="check">
        <input type="checkbox" checked={values.autoPrint} onChange={(e) => onChange({ autoPrint: e.target.checked })} />
        Print automatically on PAID
      </label>
    </fieldset>
  );
}
