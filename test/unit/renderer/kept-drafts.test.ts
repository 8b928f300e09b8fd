/** What a lock by the core keeps of Settings edits not saved yet, and for whom. */
import { describe, expect, it } from 'vitest';
import { draftOf, KeptDrafts } from '../../../renderer/src/unsaved/kept-drafts.js';

type Env = { baseUrl: string; secretKey: string; relayToken: string };
const SECRETS = { fields: { secretKey: 'secret key', relayToken: 'relay token' } };
const saved: Env = { baseUrl: 'https://a.example', secretKey: '', relayToken: '' };
const baseline = JSON.stringify(saved);

describe('what a lock keeps of a section', () => {
  it('keeps what was typed, secrets emptied and named', () => {
    const draft = draftOf('TEST environment', { ...saved, baseUrl: 'https://b.example', secretKey: 'sk_test_x' }, baseline, SECRETS);
    expect(draft).toEqual({
      label: 'TEST environment',
      values: { ...saved, baseUrl: 'https://b.example' },
      baseline,
      unkept: ['TEST environment secret key'],
    });
  });

  it('keeps no values when only secrets were typed, and names them', () => {
    const draft = draftOf('TEST environment', { ...saved, secretKey: 'sk', relayToken: 'rt' }, baseline, SECRETS);
    expect(draft.values).toBeNull();
    expect(draft.unkept).toEqual(['TEST environment secret key', 'TEST environment relay token']);
  });

  it('keeps nothing of a section that is all secret (a PIN change), only its name', () => {
    const draft = draftOf('Change the owner PIN', ['1234', '5678', ''], '["","",""]', { all: 'the new owner PIN' });
    expect(draft).toEqual({ label: 'Change the owner PIN', values: null, baseline: '["","",""]', unkept: ['the new owner PIN'] });
    expect(JSON.stringify(draft)).not.toContain('1234');
  });
});

describe('the kept edits', () => {
  const till = draftOf('This till', { name: 'Back counter' }, '{"name":"Front counter"}');

  it('are given back to the same person, once', () => {
    const kept = new KeptDrafts();
    kept.signedIn('owner');
    kept.keep('till', till);
    kept.signedIn('owner');
    expect(kept.summary()).toEqual({ sections: ['This till'], unkept: [] });
    expect(kept.peek('till')?.values).toEqual({ name: 'Back counter' });
    kept.take('till');
    expect(kept.peek('till')).toBeNull();
  });

  it('are dropped when somebody else signs in, and not given back to the owner after them', () => {
    const kept = new KeptDrafts();
    kept.signedIn('owner');
    kept.keep('till', till);
    kept.signedIn('efua');
    expect(kept.peek('till')).toBeNull();
    kept.signedIn('owner');
    expect(kept.summary()).toEqual({ sections: [], unkept: [] });
  });

  it('are dropped when nobody was known to be signed in when they were typed', () => {
    const kept = new KeptDrafts();
    kept.keep('till', till);
    kept.signedIn('owner');
    expect(kept.peek('till')).toBeNull();
  });

  it('list the secrets not kept apart from the sections kept', () => {
    const kept = new KeptDrafts();
    kept.signedIn('owner');
    kept.keep('env-test', draftOf('TEST environment', { ...saved, secretKey: 'sk' }, baseline, SECRETS));
    kept.keep('till', till);
    expect(kept.summary()).toEqual({ sections: ['This till'], unkept: ['TEST environment secret key'] });
  });
});

describe('whether closing the window would lose kept edits', () => {
  const till = draftOf('This till', { name: 'Back counter' }, '{"name":"Front counter"}');
  const secretOnly = draftOf('Change the owner PIN', ['1234', '5678', ''], '["","",""]', { all: 'the new owner PIN' });

  it('holds edits while a section’s values are kept, not for a draft of nothing but secrets', () => {
    const kept = new KeptDrafts();
    kept.signedIn('owner');
    expect(kept.holdsEdits()).toBe(false);
    kept.keep('pin', secretOnly);
    expect(kept.holdsEdits()).toBe(false);
    kept.keep('till', till);
    expect(kept.holdsEdits()).toBe(true);
    kept.take('till');
    expect(kept.holdsEdits()).toBe(false);
    kept.keep('till', till);
    kept.signedIn('efua');
    expect(kept.holdsEdits()).toBe(false);
  });

  it('says so on every change: kept, taken back, dropped for somebody else', () => {
    const seen: boolean[] = [];
    const kept: KeptDrafts = new KeptDrafts(() => seen.push(kept.holdsEdits()));
    kept.signedIn('owner');
    kept.keep('till', till);
    kept.take('till');
    kept.keep('till', till);
    kept.signedIn('efua');
    expect(seen).toEqual([false, true, false, true, false]);
  });
});
