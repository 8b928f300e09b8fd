/**
 * Choose whose payments a screen shows: everyone's, one person's, or those started with nobody signed in
 * (a staff id, null, or undefined for everyone, as takings:* and history:search take it).
 */
export type CashierChoice = string | null | undefined;
export type CashierOption = { id: string | null; name: string };

const EVERYONE = '';
const NOBODY = 'nobody';
const encode = (choice: CashierChoice) => (choice === undefined ? EVERYONE : choice === null ? NOBODY : `id:${choice}`);
const decode = (value: string): CashierChoice => (value === EVERYONE ? undefined : value === NOBODY ? null : value.slice(3));

export function CashierPicker({
  id,
  options,
  value,
  onChange,
}: {
  id: string;
  options: CashierOption[];
  value: CashierChoice;
  onChange: (c: CashierChoice) => void;
}) {
  return (
    <div className="field cashier-picker">
      <label htmlFor={id}>Cashier</label>
      <select id={id} value={encode(value)} onChange={(e) => onChange(decode(e.target.value))}>
        <option value={EVERYONE}>Everyone</option>
        {options.map((o) => (
          <option key={encode(o.id)} value={encode(o.id)}>
            {o.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** "Nobody signed in" for the payments of the one-person shop (or from before staff existed). */
export const NOBODY_SIGNED_IN = 'Nobody signed in';
