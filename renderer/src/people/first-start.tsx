/** The very first start asks for the owner PIN; it may be skipped to take sandbox payments at once. */
import { PinSetup } from '../owner/pin-setup';
import './people.css';

const SKIPPED_KEY = 'momo.ownerPinSkipped';

export function ownerPinSkipped(): boolean {
  return window.localStorage.getItem(SKIPPED_KEY) === '1';
}

export function FirstStart({ onDone }: { onDone: () => void }) {
  const skip = () => {
    window.localStorage.setItem(SKIPPED_KEY, '1');
    onDone();
  };
  return (
    <section className="first-start" aria-label="First start">
      <PinSetup mode="first" onDone={onDone} />
      <p className="hint">
        Skipping lets you take sandbox (TEST) payments now. Until an owner PIN is set, LIVE cannot be switched on and no staff can be added;
        Settings will ask for it.
      </p>
      <button type="button" className="secondary" onClick={skip}>
        Skip for now
      </button>
    </section>
  );
}
