/** How the CLI names itself in messages, and how a multi-line error becomes one line. */
import { describe, expect, it } from 'vitest';
import { oneLine } from '../../../../relay/cli/plain-errors.js';
import { programName } from '../../../../relay/cli/usage.js';

describe('programName', () => {
  it('is `npm run relay --` from the checkout (the TypeScript entry or the npm script)', () => {
    expect(programName({}, '/srv/momo-till/relay/cli.ts')).toBe('npm run relay --');
    expect(programName({ npm_lifecycle_event: 'relay' }, '/srv/momo-till/relay/dist/cli.js')).toBe('npm run relay --');
  });

  it('is the installed command’s name, or `node <file>` for the built file run directly', () => {
    expect(programName({}, '/opt/momo-relay/node_modules/.bin/momo-relay')).toBe('momo-relay');
    expect(programName({}, `${process.cwd()}/relay/dist/cli.js`)).toBe('node relay/dist/cli.js');
  });
});

describe('oneLine', () => {
  it('joins a config error’s field lines after its heading', () => {
    expect(oneLine('Invalid relay config (relay.json):\n  maxBodyBytes: too small\n  keys: is required')).toBe(
      'Invalid relay config (relay.json): maxBodyBytes: too small; keys: is required',
    );
    expect(oneLine('one line')).toBe('one line');
  });
});
