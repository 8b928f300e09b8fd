/** Which printer, where it is, and whether a PAID sale prints by itself. */
import { useEffect, useState, type InputHTMLAttributes } from 'react';
import type { IpcResponse } from '../../../shared/ipc/contract';
import type { PrinterKind } from '../../../shared/receipt/receipt-settings';
import { call } from '../api';
import { FieldError } from '../components/field-error';
import { LabelledInput } from '../components/labelled-input';
import { SelectOptions } from '../components/select-options';
import './printing.css';

export type PrinterValues = { printer: PrinterKind; host: string; port: string; deviceName: string; autoPrint: boolean };

type Props = {
  values: PrinterValues;
  onChange: (patch: Partial<PrinterValues>) => void;
  blamed: { field: string; text: string } | null;
  /** Browser mode: no silent printing to a printer installed on this computer (the browser has no such path). */
  browserMode?: boolean;
};

const KINDS: Array<[PrinterKind, string]> = [
  ['none', 'None: the screen only (the browser print view on request)'],
  ['network', 'Network thermal printer (ESC/POS over Ethernet or Wi-Fi)'],
  ['system', 'A printer installed on this computer'],
];

type AddressFieldProps = Pick<InputHTMLAttributes<HTMLInputElement>, 'placeholder' | 'spellCheck' | 'inputMode'> & {
  field: 'host' | 'port';
  label: string;
  value: string;
  blamed: Props['blamed'];
  onChange: (value: string) => void;
};

/** The network printer's host or port (#receipt-<field>), with the error the core blamed on it. */
function AddressField({ field, label, value, blamed, onChange, ...input }: AddressFieldProps) {
  const id = `receipt-${field}`;
  const error = blamed?.field === field ? blamed.text : null;
  return (
    <LabelledInput
      id={id}
      label={label}
      {...input}
      value={value}
      aria-invalid={error ? true : undefined}
      describedBy={blamed?.field === field ? `${id}-error` : undefined}
      onChange={onChange}
    >
      <FieldError id={`${id}-error`} message={error} />
    </LabelledInput>
  );
}

export const BROWSER_PRINTING_NOTE =
  "Browser mode cannot print by itself to a printer installed on this computer. Choose None to print with the browser's print dialog, or a network printer.";

export function PrinterFields({ values, onChange, blamed, browserMode = false }: Props) {
  const kinds = browserMode ? KINDS.filter(([kind]) => kind !== 'system' || values.printer === 'system') : KINDS;
  const [printers, setPrinters] = useState<IpcResponse<'printer:list'>['printers']>([]);
  useEffect(() => {
    if (values.printer !== 'system') return;
    call('printer:list', {}).then(
      (r) => setPrinters(r.printers),
      () => setPrinters([]),
    );
  }, [values.printer]);
  return (
    <fieldset className="printer-fields">
      <legend>Printer</legend>
      {browserMode ? (
        <p className="hint" data-testid="browser-printing-note">
          {BROWSER_PRINTING_NOTE}
        </p>
      ) : null}
      {kinds.map(([kind, label]) => (
        <label key={kind} className="check">
          <input type="radio" name="printer-kind" checked={values.printer === kind} onChange={() => onChange({ printer: kind })} />
          {label}
        </label>
      ))}
      {values.printer === 'network' ? (
        <div className="env-grid">
          <AddressField
            field="host"
            label="Printer address (IP or name)"
            placeholder="192.168.1.50"
            spellCheck={false}
            value={values.host}
            blamed={blamed}
            onChange={(host) => onChange({ host })}
          />
          <AddressField
            field="port"
            label="Port (9100 on most printers)"
            inputMode="numeric"
            value={values.port}
            blamed={blamed}
            onChange={(port) => onChange({ port })}
          />
        </div>
      ) : null}
      {values.printer === 'system' ? (
        <div className="field">
          <label htmlFor="receipt-device">Printer</label>
          <select id="receipt-device" value={values.deviceName} onChange={(e) => onChange({ deviceName: e.target.value })}>
            <SelectOptions none="The computer's default printer" choices={printers.map((p) => ({ value: p.name, label: p.displayName }))} />
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
