/** Large touch keypad. It types into the amount or the number, whichever was used last. */
import type { AmountEntry } from '../../../shared/money';

type Props = { onKey: (key: string) => void; target: 'amount' | 'phone'; entry: AmountEntry };

const DIGITS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

export function Keypad({ onKey, target, entry }: Props) {
  // Cedis first needs the decimal point; pesewas first (and the number) use 00 to go faster.
  const point = entry === 'cedis' && target === 'amount';
  const keys = [...DIGITS, point ? '.' : '00', '0', 'back'];
  return (
    <div className="keypad" role="group" aria-label={`Keypad, typing into the ${target === 'amount' ? 'amount' : 'number'}`}>
      {keys.map((key) => (
        <button
          key={key}
          type="button"
          className="keypad-key"
          tabIndex={-1}
          aria-label={key === 'back' ? 'Delete last digit' : key === '.' ? 'Decimal point' : key}
          // Keep focus where it is so the keyboard and the keypad can be mixed.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onKey(key)}
        >
          {key === 'back' ? '⌫' : key}
        </button>
      ))}
    </div>
  );
}
