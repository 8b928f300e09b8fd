/** Large touch keypad. It types into the amount or the number, whichever was used last. */
type Props = { onKey: (key: string) => void; target: 'amount' | 'phone' };

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '00', '0', 'back'];

export function Keypad({ onKey, target }: Props) {
  return (
    <div className="keypad" role="group" aria-label={`Keypad, typing into the ${target === 'amount' ? 'amount' : 'number'}`}>
      {KEYS.map((key) => (
        <button
          key={key}
          type="button"
          className="keypad-key"
          tabIndex={-1}
          aria-label={key === 'back' ? 'Delete last digit' : key}
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
