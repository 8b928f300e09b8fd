/** Front door of owner/ (what other folders may use): OwnerGate; the owner PIN's PinEntry (history/) and PinSetup (people/, settings/). */
/** Owner screens sit behind the PIN; on the very first visit the owner sets it. */
import type { ReactNode } from 'react';
import type { AppStatus } from '../hooks/use-app-status';
import { PinEntry } from './pin-entry';
import { PinSetup } from './pin-setup';
import './owner.css';

type Props = { status: AppStatus; onChanged: () => void; onLock: () => void; children: ReactNode };

export function OwnerGate({ status, onChanged, onLock, children }: Props) {
  if (!status.pinSet) return <PinSetup mode="first" onDone={onChanged} />;
  if (!status.ownerUnlocked) return <PinEntry onUnlocked={onChanged} />;
  return (
    <>
      <div className="owner-bar">
        <span>Owner screens unlocked</span>
        <button type="button" className="secondary small" onClick={onLock}>
          Lock
        </button>
      </div>
      {children}
    </>
  );
}
