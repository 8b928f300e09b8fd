/**
 * docs/release.md, the maintainer's guide, as written: every command, name and file it shows as code has a case
 * here, and a new one without a case fails the first test. A case runs the command as written where it can run
 * here (`<version>` is package.json's), checks that what it names exists and agrees with what reads it (the
 * workflow, scripts/package.mjs, electron-builder, electron-updater), or is skipped by name, saying why.
 * Stand-ins, named as such: a local bare repository for the project's GitHub remote, a file of random bytes for
 * the certificate, sample build folders for the release workflow's artifacts.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeCscLinkBase64 } from 'builder-util';
import { afterAll, describe, expect, it } from 'vitest';
import { codeItems, readDoc } from '../../support/doc-blocks.js';
import { removeDir, tempDir } from '../../support/temp-dir.js';
import { type Case, nameCases, PACKAGE_ENV, packageMjs, pkg, SET_BY_OPERATOR } from './release-doc-cases.js';
import { tagAndPush } from './release-runs.js';
import { read, sh, stepRun, workflow, workflowNames } from './release-tools.js';

const doc = readDoc('docs/release.md');
const items = codeItems(doc);
const tmp = tempDir('release-doc');
afterAll(() => removeDir(tmp));
const SECRETS = items.filter((i) => /^[A-Z][A-Z0-9_]+$/.test(i) && !SET_BY_OPERATOR.includes(i)).sort();
const NPM_PACKAGE_SKIP =
  'needs the Electron build electron-builder downloads (unreachable here); the packaging test runs scripts/package.mjs --linux dir with a stand-in Electron';

/** The guide's git commands, run once in order. */
let tags: ReturnType<typeof tagAndPush> | undefined;
const tagged = () =>
  (tags ??= tagAndPush(join(tmp, 'tag'), pkg.version, [
    'git tag v<version>',
    'git push origin v<version>',
    'git rev-parse v<version>^{commit}',
  ]));

const CASES: Record<string, Case> = {
  ...nameCases(SECRETS, tmp),
  // The commands.
  'base64 -i cert.p12': {
    check: 'run as written on a stand-in cert.p12: electron-builder decodes its output, as a secret holds it, back to the file',
    run: () => {
      const dir = join(tmp, 'cert');
      mkdirSync(dir);
      const cert = randomBytes(2500);
      writeFileSync(join(dir, 'cert.p12'), cert);
      const ran = sh('base64 -i cert.p12', dir);
      expect(ran.status, ran.out).toBe(0);
      expect(decodeCscLinkBase64(ran.out.trim())?.equals(cert)).toBe(true);
    },
  },
  'npm install': {
    check:
      'updates the lock file to a raised version (run in a copy of package.json and the lock as --package-lock-only --offline: the whole install is minutes and downloads Electron)',
    run: () => {
      const dir = join(tmp, 'lock');
      mkdirSync(dir);
      writeFileSync(join(dir, 'package.json'), read('package.json').replace(`"version": "${pkg.version}"`, '"version": "99.0.0"'));
      writeFileSync(join(dir, 'package-lock.json'), read('package-lock.json'));
      const ran = sh('npm install --package-lock-only --offline --ignore-scripts --no-audit --no-fund', dir);
      expect(ran.status, ran.out).toBe(0);
      const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
      expect([lock.version, lock.packages[''].version]).toEqual(['99.0.0', '99.0.0']);
    },
  },
  'npm test': { skip: 'the whole suite, this file among it (about 20 minutes); package.json’s test script is what CI runs' },
  'git tag v<version>': {
    check:
      'run as written (then the next two) in a repository holding package.json: the tag is there, and the workflow’s tag check passes on it',
    run: () => tagged(),
  },
  'git push origin v<version>': {
    check: 'run as written to a local bare repository standing in for GitHub: the tag arrives there',
    run: () => tagged(),
  },
  'git rev-parse v<version>^{commit}': {
    check: 'run as written after the tag: the tagged commit',
    run: () => expect(tagged().outputs[2]).toBe(tagged().head),
  },
  'v<version>': { check: 'the tag the workflow builds on (its trigger v*)', run: () => expect(workflow).toMatch(/tags: \['v\*'\]/) },
  'npm run package': { skip: NPM_PACKAGE_SKIP },
  'npm run package -- --linux dir': { skip: NPM_PACKAGE_SKIP },
  'sudo apt install ./momo-till_<version>_amd64.deb': {
    skip: 'needs root and a real deb: electron-builder builds it with fpm, which it downloads (the packaging test checks the Depends fpm is given)',
  },
};

describe('docs/release.md, as written', () => {
  it('every command, name and file it shows has a case here (a new one fails until it has one), and no case is stale', () => {
    expect(items.filter((item) => !(item in CASES))).toEqual([]);
    expect(Object.keys(CASES).filter((item) => !items.includes(item))).toEqual([]);
  });

  it('the secrets it names are exactly the ones the workflow reads; its variables are the workflow’s and scripts/package.mjs reads them', () => {
    expect(SECRETS).toEqual(workflowNames('secrets'));
    expect(workflowNames('vars')).toEqual(['MOMO_UPDATE_GITHUB', 'MOMO_UPDATE_URL']);
    for (const name of workflowNames('vars')) expect(doc.text.replace(/\s+/g, ' ')).toContain(`the repository variable \`${name}\``);
    // scripts/package.mjs also reads two names for tests and development, described in its own header.
    expect(PACKAGE_ENV).toEqual([...SET_BY_OPERATOR, 'MOMO_PACKAGE_STAGING', 'MOMO_SKIP_BUILD'].sort());
    for (const name of ['MOMO_PACKAGE_STAGING', 'MOMO_SKIP_BUILD']) expect(packageMjs.slice(0, packageMjs.indexOf('*/'))).toContain(name);
  });

  it('"The workflow refuses to build a Mac or Windows release without its signing secrets": its check, run', () => {
    const check = stepRun('Signing secrets are present (a release is never built unsigned by accident)');
    const status = (env: Record<string, string>) =>
      sh(check, tmp, { MAC_CSC_LINK: '', APPLE_API_KEY_P8: '', WIN_CSC_LINK: '', ...env }).status;
    expect(status({ OS: 'macOS' })).not.toBe(0);
    expect(status({ OS: 'macOS', MAC_CSC_LINK: 'x' })).not.toBe(0);
    expect(status({ OS: 'macOS', MAC_CSC_LINK: 'x', APPLE_API_KEY_P8: 'y' })).toBe(0);
    expect(status({ OS: 'Windows' })).not.toBe(0);
    expect(status({ OS: 'Windows', WIN_CSC_LINK: 'x' })).toBe(0);
    expect(status({ OS: 'Linux' })).toBe(0);
  });

  for (const item of items) {
    const c = CASES[item];
    if (!c) continue;
    if ('skip' in c) it.skip(`${item}: ${c.skip}`, () => {});
    else it(`${item}: ${c.check}`, async () => c.run());
  }
});
