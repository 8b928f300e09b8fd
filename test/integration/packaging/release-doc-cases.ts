/**
 * The names docs/release.md shows as code (files, installers, update lists, variables, secrets, the relay's
 * previous release), each with its check against what reads it: the release workflow, scripts/package.mjs,
 * electron-builder and electron-updater. release-doc.test.ts runs them beside the guide's commands.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { homepageArgs, publishArgs } from '../../../scripts/package.mjs';
import { mergeRelease } from './release-runs.js';
import { installerNames, read, ROOT, stepRun, workflow, workflowNames, updateListName } from './release-tools.js';

export const pkg = JSON.parse(read('package.json')) as { version: string; scripts: Record<string, string> };
export const asWritten = (command: string): string => command.replaceAll('<version>', pkg.version);
const builderYml = read('electron-builder.yml');
export const packageMjs = read('scripts/package.mjs');
/** The names scripts/package.mjs reads from the environment; the guide names the three an operator sets. */
export const PACKAGE_ENV = [...new Set([...packageMjs.matchAll(/env\.(MOMO_\w+)/g)].map((m) => m[1]!))].sort();
export const SET_BY_OPERATOR = ['MOMO_HOMEPAGE', 'MOMO_UPDATE_GITHUB', 'MOMO_UPDATE_URL'];

export const exists = (path: string) => (): void => expect(existsSync(join(ROOT, path)), path).toBe(true);
const secret = (name: string) => () => {
  expect(workflowNames('secrets')).toContain(name);
  const header = workflow.split('\n').filter((l) => l.startsWith('#') && new RegExp(`\\b${name}\\b`).test(l));
  expect(header, 'release.yml’s header lists it').toHaveLength(1);
};
const previous = () => JSON.parse(read('test/integration/relay/previous-release.json')) as { commit: string; pgSchema: number };
const migrations = () =>
  readdirSync(join(ROOT, 'relay/store/pg/migrations'))
    .filter((f) => /^\d{4}-/.test(f))
    .sort();
let names: Promise<string[]> | undefined;
const named = (shown: string) => async () => expect(await (names ??= installerNames(pkg.version))).toContain(asWritten(shown));

/** A command or name of the guide: checked (or run) as `check` says, or skipped, saying why. */
export type Case = { check: string; run: () => unknown } | { skip: string };

/** The guide's names, `secrets` among them, each with its check; `tmp` is the test's folder for what runs. */
export function nameCases(secrets: readonly string[], tmp: string): Record<string, Case> {
  return {
    // The files the guide names.
    '.github/workflows/release.yml': {
      check: 'exists and runs on a pushed tag v*',
      run: () => expect(workflow).toMatch(/push:\n\s+tags: \['v\*'\]/),
    },
    'scripts/package.mjs': {
      check: 'is what npm run package runs',
      run: () => expect(pkg.scripts.package).toBe('node scripts/package.mjs'),
    },
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
    'test/integration/core/update-data-folder.test.ts': {
      check: 'exists',
      run: exists('test/integration/core/update-data-folder.test.ts'),
    },
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
      run: () =>
        expect([builderYml, workflow]).toEqual([expect.stringMatching(/target:\n\s+- dmg/), expect.stringContaining('dist/*.dmg')]),
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
    ...Object.fromEntries(secrets.map((name) => [name, { check: 'a secret the workflow reads, listed in its header', run: secret(name) }])),
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
    // The relay's release (the same tag), and the previous release the rolling-upgrade test upgrades from.
    'npm run build:relay': {
      check: 'package.json’s script, run before this file by the integration tests’ setup',
      run: () => {
        expect(pkg.scripts['build:relay']).toBe('node scripts/build-relay.mjs');
        expect(read('test/integration/build-relay.setup.ts')).toContain(`['scripts/build-relay.mjs']`);
      },
    },
    'npm pack ./relay': {
      check: 'run as written by the operator guide’s install test',
      run: () => expect(read('test/integration/relay/cli/install.test.ts')).toContain(`'npm', ['pack', './relay'`),
    },
    'test/integration/relay/previous-release.json': { check: 'exists', run: exists('test/integration/relay/previous-release.json') },
    commit: { check: 'previous-release.json’s commit, a full commit id', run: () => expect(previous().commit).toMatch(/^[0-9a-f]{40}$/) },
    pgSchema: {
      check: 'previous-release.json’s schema number, which the rolling-upgrade test checks on the installed release',
      run: () => {
        expect(Number.isInteger(previous().pgSchema)).toBe(true);
        expect(read('test/integration/relay/cli/rolling-upgrade.test.ts')).toContain('PREVIOUS.pgSchema');
      },
    },
    'relay/store/pg/migrations/': {
      check: 'exists, holding at least the previous release’s migrations',
      run: () => expect(migrations().length).toBeGreaterThanOrEqual(previous().pgSchema),
    },
    'NNNN-…': {
      check: 'the migrations’ names there: numbered 0001 up, with no gap',
      run: () => expect(migrations().map((f) => Number(f.slice(0, 4)))).toEqual(migrations().map((_, i) => i + 1)),
    },
    'test/integration/relay/cli/rolling-upgrade.test.ts': {
      check: 'exists',
      run: exists('test/integration/relay/cli/rolling-upgrade.test.ts'),
    },
  };
}
