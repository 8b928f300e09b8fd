/** What the receipt says (shop header, tax id, footer), the paper, the printer; a test print. */
import { useState, type FormEvent } from 'react';
import type { ReceiptSettings } from '../../../shared/receipt/receipt-settings';
import { call, toCallError } from '../api';
import { FieldError } from '../components/field-error';
import { SaveMessage } from '../components/save-message';
import { UnsavedMark } from '../unsaved/unsaved-mark';
import { useKeptValues, useUnsaved } from '../unsaved/use-unsaved';
import { PrintSheet } from './print-sheet';
import { PrintStatus } from './print-status';
import { usePrinter } from './use-printer';
import { PrinterFields, type PrinterValues } from './printer-fields';

type Values = Omit<ReceiptSettings, 'port'> & { port: string };
type Message = { ok: boolean; text: string; field?: string } | null;
type TextField = 'shopName' | 'phone' | 'taxId' | 'footer';

const MAX: Record<TextField, number> = { shopName: 40, phone: 20, taxId: 20, footer: 120 };

function toSettings(values: Values): ReceiptSettings | { field: string; text: string } {
  const port = Number(values.port);
  if (!/^[0-9]{1,5}$/.test(values.port.trim()) || port < 1 || port > 65_535)
    return { field: 'port', text: 'Port: a number from 1 to 65535 (9100 on most printers).' };
  return { ...values, port };
}

export function ReceiptForm({
  settings,
  onSaved,
  browserMode = false,
}: {
  settings: ReceiptSettings;
  onSaved: () => void;
  browserMode?: boolean;
}) {
  const kept = useKeptValues<Values>('receipt');
  const [values, setValues] = useState<Values>(kept ?? { ...settings, port: String(settings.port) });
  const [message, setMessage] = useState<Message>(null);
  const test = usePrinter();
  const unsaved = useUnsaved('receipt', 'Receipts and printer', values);
  const change = (patch: Partial<Values>) => setValues((v) => ({ ...v, ...patch }));
  const blamed = message && !message.ok && message.field ? { field: message.field, text: message.text } : null;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const clean = toSettings(values);
    if (!('paper' in clean)) return setMessage({ ok: false, ...clean });
    try {
      await call('receipt:saveSettings', clean);
      setMessage({ ok: true, text: 'Receipt and printer saved.' });
      unsaved.saved(values);
      onSaved();
    } catch (err) {
      const error = toCallError(err);
      setMessage({ ok: false, text: error.message, ...(error.field ? { field: error.field } : {}) });
      if (error.field) document.getElementById(`receipt-${error.field}`)?.focus();
    }
  };

  return (
    <form className="receipt-form" onSubmit={(e) => void save(e)} aria-labelledby="receipt-form-title" data-testid="receipt-form">
      <h2 id="receipt-form-title">Receipts and printer</h2>
      <ReceiptFields values={values} change={change} blamed={blamed} />
      <label className="check">
        <input type="checkbox" checked={values.merchantCopy} onChange={(e) => change({ merchantCopy: e.target.checked })} />
        Also print a merchant copy (with the fee and what the shop receives)
      </label>
      <PrinterFields values={values as PrinterValues} onChange={change} blamed={blamed} browserMode={browserMode} />
      <SaveMessage message={blamed ? null : message} testId="receipt-save-message" alertOnRefusal />
      <div className="actions">
        <button type="submit" className="primary">
          Save receipt and printer
        </button>
        <button type="button" className="secondary" onClick={() => void test.print(() => call('receipt:testPrint', {}))}>
          Test print
        </button>
        <UnsavedMark dirty={unsaved.dirty} testId="receipt-form-unsaved" />
      </div>
      <PrintStatus state={test.state} onRetry={() => void test.print(() => call('receipt:testPrint', {}))} />
      {test.sheet ? <PrintSheet ref={test.sheetRef} documents={test.sheet.documents} paper={test.sheet.paper} /> : null}
    </form>
  );
}

type FieldsProps = {
  values: Values;
  change: (patch: Partial<Values>) => void;
  blamed: { field: string; text: string } | null;
};

/** What the receipt says and the paper it is printed on. */
function ReceiptFields({ values, change, blamed }: FieldsProps) {
  const text = (field: TextField, label: string, placeholder = '') => (
    <div className="field">
      <label htmlFor={`receipt-${field}`}>{label}</label>
      <input
        id={`receipt-${field}`}
        maxLength={MAX[field]}
        placeholder={placeholder}
        value={values[field]}
        aria-invalid={blamed?.field === field ? true : undefined}
        aria-describedby={blamed?.field === field ? `receipt-${field}-error` : undefined}
        onChange={(e) => change({ [field]: e.target.value })}
      />
      <FieldError id={`receipt-${field}-error`} message={blamed?.field === field ? blamed.text : null} />
    </div>
  );

  return (
    <div className="env-grid">
      {text('shopName', 'Shop name (the till name when empty)')}
      {text('phone', 'Shop phone', '030 123 4567')}
      <div className="field">
        <label htmlFor="receipt-address">Address (up to 3 lines)</label>
        <textarea
          id="receipt-address"
          rows={3}
          maxLength={120}
          value={values.address}
          onChange={(e) => change({ address: e.target.value })}
        />
        <FieldError id="receipt-address-error" message={blamed?.field === 'address' ? blamed.text : null} />
      </div>
      <div className="field">
        <label htmlFor="receipt-taxIdKind">Tax id on the receipt</label>
        <select
          id="receipt-taxIdKind"
          value={values.taxIdKind}
          onChange={(e) => change({ taxIdKind: e.target.value as Values['taxIdKind'] })}
        >
          <option value="none">None</option>
          <option value="tin">GRA TIN</option>
          <option value="vat">VAT number</option>
        </select>
      </div>
      {values.taxIdKind === 'none' ? null : text('taxId', 'Tax id', 'C0012345678')}
      {text('footer', 'Message at the bottom', 'Thank you')}
      <div className="field">
        <label htmlFor="receipt-paper">Paper width</label>
        <select id="receipt-paper" value={values.paper} onChange={(e) => change({ paper: Number(e.target.value) === 58 ? 58 : 80 })}>
          <option value={80}>80 mm</option>
          <option value={58}>58 mm</option>
        </select>
      </div>
    </div>
  );
}
