/**
 * docs/release.md, the maintainer's guide, as written: every command, name and file it shows as code has a case
 * here, and a new one without a case fails the first test. A case runs the command as written where it can run
 * here (`<version>` is package.json's), checks that what it names exists and agrees with what reads it (the
 * workflow, scripts/package.mjs, electron-builder, electron-updater), or is skipped by name, saying why.
 * Stand-ins, named as such: a local bare repository for the project's GitHub remote, a file of random bytes for
 * the certificate, sample build folders for the release workflow's artifacts.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeCscLinkBase64 } from 'builder-util';
import { afterAll, describe, expect, it } from 'vitest';
import { homepageArgs, publishArgs } from '../../../scripts/package.mjs';
import { codeItems, readDoc } from '../../support/doc-blocks.js';
import { removeDir, tempDir } from '../../support/temp-dir.js';
import { mergeRelease, tagAndPush } from './release-runs.js';
import { installerNames, read, ROOT, sh, stepRun, workflow, workflowNames, updateListName } from './release-tools.js';

const doc = readDoc('docs/release.md');
const items = codeItems(doc);
const pkg = JSON.parse(read('package.json')) as { version: string; scripts: Record<string, string> };
const asWritten = (command: string) => command.replaceAll('<version>', pkg.version);
const builderYml = read('electron-builder.yml');
const packageMjs = read('scripts/package.mjs');
const tmp = tempDir('release-doc');
afterAll(() => removeDir(tmp));

/** The names scripts/package.mjs reads from the environment; the guide names the three an operator sets. */
const PACKAGE_ENV = [...new Set([...packageMjs.matchAll(/env\.(MOMO_\w+)/g)].map((m) => m[1]!))].sort();
const SET_BY_OPERATOR = ['MOMO_HOMEPAGE', 'MOMO_UPDATE_GITHUB', 'MOMO_UPDATE_URL'];
const SECRETS = items.filter((i) => /^[A-Z][A-Z0-9_]+$/.test(i) && !SET_BY_OPERATOR.includes(i)).sort();

const exists = (path: string) => () => expect(existsSync(join(ROOT, path)), path).toBe(true);
const secret = (name: string) => () => {
  expect(workflowNames('secrets')).toContain(name);
  const header = workflow.split('\n').filter((l) => l.startsWith('#') && new RegExp(`\\b${name}\\b`).test(l));
  expect(header, 'release.yml’s header lists it').toHaveLength(1);
};
const NPM_PACKAGE_SKIP =
  'needs the Electron build electron-builder downloads (unreachable here); the packaging test runs scripts/package.mjs --linux dir with a stand-in Electron';
let names: Promise<string[]> | undefined;
const named = (shown: string) => async () => expect(await (names ??= installerNames(pkg.version))).toContain(asWritten(shown));

type Case = { check: string; run: () => unknown } | { skip: string };
const CASES: Record<string, Case> = {
  // The files the guide names.
  '.github/workflows/release.yml': {
    check: 'exists and runs on a pushed tag v*',
    run: () => expect(workflow).toMatch(/push:\n\s+tags: \['v\*'\]/),
  },
  'scripts/package.mjs': { check: 'is what npm run package runs', run: () => expect(pkg.scripts.package).toBe('node scripts/package.mjs') },
  'electron-builder.yml': {
    check: 'is the config npm run package gives electron-builder',
    run: () => expect(packageMjs).toMatch(/'--config',\s*join\(root, 'electron-builder\.yml'\)/),
  },
  'scripts/merge-release.mjs': {
    check:
      'the workflow runs it (as written there) on two Macs’ builds and a Linux one: one folder, one latest-mac.yml listing both arches',
    run: () => mergeRelease(tmp, pkg.version),
  },
  'resources/entitlements.mac.plist': {
    check: 'is electron-builder.yml’s Mac entitlements, and allows JIT only',
    run: () => {
      expect(builderYml).toMatch(/buildResources: resources\b/);
      expect(builderYml).toContain('entitlements: entitlements.mac.plist');
      expect([...read('resources/entitlements.mac.plist').matchAll(/<key>([^<]+)<\/key>/g)].map((m) => m[1])).toEqual([
        'com.apple.security.cs.allow-jit',
      ]);
    },
  },
  'test/integration/core/update-data-folder.test.ts': { check: 'exists', run: exists('test/integration/core/update-data-folder.test.ts') },
  'package.json': { check: 'exists, with a version', run: () => expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/) },
  version: {
    check: 'package.json’s field, the same in the lock file',
    run: () => expect(JSON.parse(read('package-lock.json')).version).toBe(pkg.version),
  },
  'till.db': {
    check: 'the database the core opens in the data folder',
    run: () => expect(read('electron/core/index.ts')).toContain(`join(dataDir, 'till.db')`),
  },
  'dist/': {
    check: 'where npm run package writes the installers',
    run: () =>
      expect([builderYml, packageMjs]).toEqual([
        expect.stringContaining('output: dist\n'),
        expect.stringContaining("-c.directories.output=${join(root, 'dist')}"),
      ]),
  },
  'node_modules/.cache/momo-till/package-app': {
    check: 'npm run package’s staging copy',
    run: () => expect(packageMjs).toContain(`join(root, 'node_modules', '.cache', 'momo-till', 'package-app')`),
  },
  win: { check: 'a section of electron-builder.yml', run: () => expect(builderYml).toMatch(/^win:$/m) },
  '@napi-rs/keyring-darwin-<arch>': {
    check: 'the lock file holds one per Mac arch, each for darwin on that cpu only',
    run: () => {
      const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { os?: string[]; cpu?: string[] }> };
      for (const arch of ['arm64', 'x64'])
        expect(lock.packages[`node_modules/@napi-rs/keyring-darwin-${arch}`]).toMatchObject({ os: ['darwin'], cpu: [arch] });
    },
  },
  'libsecret-1-0': { check: 'in the deb’s depends', run: () => expect(builderYml).toContain('\n    - libsecret-1-0\n') },
  'gnome-keyring | libkf5wallet-bin | keepassxc': {
    check: 'in the deb’s depends',
    run: () => expect(builderYml).toContain('\n    - gnome-keyring | libkf5wallet-bin | keepassxc\n'),
  },
  // The installers and update lists, as electron-builder and electron-updater name them.
  'momo-till-<version>-setup-x64.exe': { check: 'electron-builder’s name for it', run: named('momo-till-<version>-setup-x64.exe') },
  'momo-till-<version>-mac-arm64.dmg': { check: 'electron-builder’s name for it', run: named('momo-till-<version>-mac-arm64.dmg') },
  'momo-till-<version>-mac-arm64.zip': { check: 'electron-builder’s name for it', run: named('momo-till-<version>-mac-arm64.zip') },
  'momo-till-<version>-mac-x64.dmg': { check: 'electron-builder’s name for it', run: named('momo-till-<version>-mac-x64.dmg') },
  'momo-till-<version>-mac-x64.zip': { check: 'electron-builder’s name for it', run: named('momo-till-<version>-mac-x64.zip') },
  'momo-till-<version>.AppImage': { check: 'electron-builder’s name for it', run: named('momo-till-<version>.AppImage') },
  'momo-till_<version>_amd64.deb': { check: 'electron-builder’s name for it', run: named('momo-till_<version>_amd64.deb') },
  '.exe': {
    check: 'the Windows target is NSIS’s installer, and the workflow uploads it',
    run: () => expect([builderYml, workflow]).toEqual([expect.stringContaining('target: nsis'), expect.stringContaining('dist/*.exe')]),
  },
  '.dmg': {
    check: 'a Mac target, and the workflow uploads it',
    run: () => expect([builderYml, workflow]).toEqual([expect.stringMatching(/target:\n\s+- dmg/), expect.stringContaining('dist/*.dmg')]),
  },
  'latest.yml': { check: 'the list electron-updater reads on Windows', run: () => expect(updateListName('win32')).toBe('latest.yml') },
  'latest-mac.yml': {
    check: 'the list electron-updater reads on macOS',
    run: () => expect(updateListName('darwin')).toBe('latest-mac.yml'),
  },
  'latest-linux.yml': {
    check: 'the list electron-updater reads on Linux',
    run: () => expect(updateListName('linux')).toBe('latest-linux.yml'),
  },
  'latest*.yml': {
    check: 'the workflow uploads them, and to the generic feed after every installer',
    run: () => {
      expect(workflow).toContain('dist/latest*.yml');
      expect(stepRun('Upload to the generic update feed')).toMatch(
        /--exclude 'latest\*\.yml' release\/ .*\n.*release\/latest\*\.yml "\$UPDATE_SSH_TARGET"/,
      );
    },
  },
  // The feed and the project's address: read by scripts/package.mjs, given by the workflow.
  MOMO_UPDATE_URL: {
    check: 'an https folder makes the generic feed; the workflow gives the repository variable and uploads only when it is set',
    run: () => {
      expect(publishArgs({ MOMO_UPDATE_URL: 'https://updates.example/momo-till/' })).toEqual([
        '-c.publish.provider=generic',
        '-c.publish.url=https://updates.example/momo-till/',
      ]);
      expect(workflow).toContain('MOMO_UPDATE_URL: ${{ vars.MOMO_UPDATE_URL }}');
      expect(workflow).toContain("if: vars.MOMO_UPDATE_URL != ''");
    },
  },
  MOMO_UPDATE_GITHUB: {
    check: 'owner/repo makes the GitHub feed and the deb’s address; the workflow gives the repository variable',
    run: () => {
      expect(publishArgs({ MOMO_UPDATE_GITHUB: 'shop/till' })).toEqual([
        '-c.publish.provider=github',
        '-c.publish.owner=shop',
        '-c.publish.repo=till',
      ]);
      expect(homepageArgs({ MOMO_UPDATE_GITHUB: 'shop/till' })).toEqual(['-c.extraMetadata.homepage=https://github.com/shop/till']);
      expect(workflow).toContain('MOMO_UPDATE_GITHUB: ${{ vars.MOMO_UPDATE_GITHUB }}');
    },
  },
  MOMO_HOMEPAGE: {
    check: 'the deb’s address, ahead of MOMO_UPDATE_GITHUB’s; the workflow gives the repository it runs in',
    run: () => {
      expect(homepageArgs({ MOMO_HOMEPAGE: 'https://git.example/till', MOMO_UPDATE_GITHUB: 'a/b' })).toEqual([
        '-c.extraMetadata.homepage=https://git.example/till',
      ]);
      expect(workflow).toContain('MOMO_HOMEPAGE: ${{ github.server_url }}/${{ github.repository }}');
    },
  },
  'owner/repo': {
    check: 'the form MOMO_UPDATE_GITHUB takes, and no other',
    run: () => expect(() => publishArgs({ MOMO_UPDATE_GITHUB: 'https://github.com/a/b' })).toThrow(/owner\/repo/),
  },
  'https://': {
    check: 'MOMO_UPDATE_URL refuses plain http',
    run: () => expect(() => publishArgs({ MOMO_UPDATE_URL: 'http://updates.example/' })).toThrow(/must be https/),
  },
  // The secrets, each read by the workflow.
  ...Object.fromEntries(SECRETS.map((name) => [name, { check: 'a secret the workflow reads, listed in its header', run: secret(name) }])),
  'user@host:/srv/momo-till/': {
    check: 'UPDATE_SSH_TARGET’s form: the rsync destination the release folder’s files go into',
    run: () => expect(stepRun('Upload to the generic update feed')).toContain('release/ "$UPDATE_SSH_TARGET"'),
  },
  '.p12': {
    check: 'what MAC_CSC_LINK holds (base64), given to electron-builder as CSC_LINK on a Mac',
    run: () => expect(workflow).toContain("runner.os == 'macOS' && secrets.MAC_CSC_LINK"),
  },
  '.pfx': {
    check: 'what WIN_CSC_LINK holds (base64), given to electron-builder as CSC_LINK on Windows',
    run: () => expect(workflow).toContain("runner.os == 'Windows' && secrets.WIN_CSC_LINK"),
  },
  '.p8': {
    check: 'APPLE_API_KEY_P8’s text is written to a .p8 file whose path electron-builder gets as APPLE_API_KEY',
    run: () => {
      expect(stepRun('App Store Connect key file (notarization)')).toBe(`printf '%s' "$APPLE_API_KEY_P8" > "$RUNNER_TEMP/AuthKey.p8"`);
      expect(workflow).toContain("APPLE_API_KEY: ${{ runner.os == 'macOS' && format('{0}/AuthKey.p8', runner.temp) || '' }}");
    },
  },
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
    check: 'run as written in a repository holding package.json: the tag is there, and the workflow’s tag check passes on it',
    run: () => tagAndPush(join(tmp, 'tag'), pkg.version, ['git tag v<version>']),
  },
  'git push origin v<version>': {
    check: 'run as written to a local bare repository standing in for GitHub: the tag arrives, and the workflow’s tag check passes on it',
    run: () => tagAndPush(join(tmp, 'push'), pkg.version, ['git tag v<version>', 'git push origin v<version>']),
  },
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
