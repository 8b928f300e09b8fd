/** Add or edit one person: name, role, PIN (typed twice). A refusal names the field; nothing typed is lost. */
import { useState, type FormEvent } from 'react';
import type { StaffMember } from '../../../shared/ipc/contract';
import { call, toCallError } from '../api';
import { FieldError } from '../components/field-error';
import { FormActions } from '../components/form-actions';
import { FormError } from '../components/form-error';
import { PinField } from '../components/pin-field';

type Props = { member?: StaffMember; onSaved: () => void; onCancel?: () => void };
type Errors = { name?: string; pin?: string; form?: string };

export function StaffForm({ member, onSaved, onCancel }: Props) {
  const prefix = member ? `staff-${member.id}` : 'staff-new';
  const [name, setName] = useState(member?.name ?? '');
  const [role, setRole] = useState(member?.role ?? 'cashier');
  const [active, setActive] = useState(member?.active ?? true);
  const [pin, setPin] = useState('');
  const [again, setAgain] = useState('');
  const [errors, setErrors] = useState<Errors>({});

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (pin !== again) return setErrors({ pin: 'The two PINs are not the same; type them again.' });
    if (!member && pin === '') return setErrors({ pin: 'Choose a PIN of 4 to 6 digits.' });
    try {
      if (member) await call('staff:update', { id: member.id, name, role, active, ...(pin ? { pin } : {}) });
      else await call('staff:add', { name, role: role === 'manager' ? 'manager' : 'cashier', pin });
      setErrors({});
      setPin('');
      setAgain('');
      if (!member) setName('');
      onSaved();
    } catch (err) {
      const error = toCallError(err);
      setErrors(error.field === 'name' || error.field === 'pin' ? { [error.field]: error.message } : { form: error.message });
    }
  };

  const isOwner = member?.role === 'owner';
  return (
    <form className="staff-form" onSubmit={(e) => void submit(e)} aria-label={member ? `Edit ${member.name}` : 'Add a person'}>
      <div className="field">
        <label htmlFor={`${prefix}-name`}>Name</label>
        <input
          id={`${prefix}-name`}
          value={name}
          maxLength={40}
          aria-describedby={errors.name ? `${prefix}-name-error` : undefined}
          onChange={(e) => setName(e.target.value)}
        />
        <FieldError id={`${prefix}-name-error`} message={errors.name ?? null} />
      </div>
      {isOwner ? null : (
        <div className="field">
          <label htmlFor={`${prefix}-role`}>Role</label>
          <select id={`${prefix}-role`} value={role} onChange={(e) => setRole(e.target.value as 'cashier' | 'manager')}>
            <option value="cashier">Cashier: charge, own shift, reprint</option>
            <option value="manager">Manager: also takings, close shifts and the day, settle by hand</option>
          </select>
        </div>
      )}
      <PinField
        id={`${prefix}-pin`}
        label={member ? 'New PIN (leave empty to keep)' : 'PIN (4 to 6 digits)'}
        value={pin}
        onChange={setPin}
        describedBy={errors.pin ? `${prefix}-pin-error` : undefined}
      />
      <PinField id={`${prefix}-again`} label="PIN again" value={again} onChange={setAgain}>
        <FieldError id={`${prefix}-pin-error`} message={errors.pin ?? null} />
      </PinField>
      {member && !isOwner ? (
        <label className="check">
          <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} /> May sign in (untick to disable)
        </label>
      ) : null}
      <FormError message={errors.form} />
      <FormActions submit={member ? 'Save' : 'Add'} onCancel={onCancel} />
    </form>
  );
}
