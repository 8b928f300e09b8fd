/** The release workflow's steps that the guide's commands lead to, run on stand-ins named as such. */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { read, ROOT, sh, stepRun } from './release-tools.js';

/**
 * The workflow's "One folder, one latest-mac.yml" step, its command as written there, on stand-in build folders:
 * two Macs' (each with its own latest-mac.yml) and a Linux one.
 */
export function mergeRelease(tmp: string, version: string): void {
  const dir = join(tmp, 'merge');
  const build = (job: string, files: Record<string, string>) => {
    mkdirSync(join(dir, 'artifacts', job), { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, 'artifacts', job, file), text);
  };
  const macList = (arch: string) =>
    `version: ${version}\nfiles:\n  - url: momo-till-${version}-mac-${arch}.zip\n    sha512: ${arch}==\n    size: 1\npath: momo-till-${version}-mac-${arch}.zip\nsha512: ${arch}==\n`;
  build('installers-macos-15', { 'latest-mac.yml': macList('arm64'), [`momo-till-${version}-mac-arm64.zip`]: 'zip' });
  build('installers-macos-15-intel', { 'latest-mac.yml': macList('x64'), [`momo-till-${version}-mac-x64.zip`]: 'zip' });
  build('installers-ubuntu-24.04', { 'latest-linux.yml': 'version: x\n', [`momo-till_${version}_amd64.deb`]: 'deb' });
  const command = stepRun('One folder, one latest-mac.yml');
  expect(command).toBe('node scripts/merge-release.mjs artifacts release');
  const ran = sh(command.replace('scripts/', `${ROOT}/scripts/`), dir);
  expect(ran.status, ran.out).toBe(0);
  expect(readdirSync(join(dir, 'release')).sort()).toEqual(
    [
      'latest-linux.yml',
      'latest-mac.yml',
      `momo-till-${version}-mac-arm64.zip`,
      `momo-till-${version}-mac-x64.zip`,
      `momo-till_${version}_amd64.deb`,
    ].sort(),
  );
  const merged = readFileSync(join(dir, 'release', 'latest-mac.yml'), 'utf8');
  expect(merged.match(/- url: .*/g)).toEqual([`- url: momo-till-${version}-mac-arm64.zip`, `- url: momo-till-${version}-mac-x64.zip`]);
}

/**
 * The guide's `commands` (its "Tag it" step, `<version>` filled in) in a repository holding package.json whose
 * origin is a local bare one standing in for GitHub; then the workflow's tag check on the tag. Their outputs.
 */
export function tagAndPush(dir: string, version: string, commands: string[]): { outputs: string[]; head: string } {
  // A maintainer's own git settings (signing, hooks) are theirs; here git runs with none.
  const git = {
    ...{ GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    ...{ GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.org', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.org' },
  };
  const work = join(dir, 'work');
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'package.json'), read('package.json'));
  const setup = sh(
    'git init -q --bare ../origin.git && git init -q && git add package.json && git commit -qm release && git remote add origin ../origin.git',
    work,
    git,
  );
  expect(setup.status, setup.out).toBe(0);
  const outputs = commands.map((command) => {
    const ran = sh(command.replaceAll('<version>', version), work, git);
    expect(ran.status, `${command}\n${ran.out}`).toBe(0);
    return ran.out.trim();
  });
  expect(sh('git tag --list', work).out.trim()).toBe(`v${version}`);
  const pushed = commands.some((c) => c.startsWith('git push'));
  expect(sh('git --git-dir=../origin.git tag --list', work).out.trim()).toBe(pushed ? `v${version}` : '');
  const check = stepRun('The tag is the package version');
  expect(sh(check, work, { GITHUB_REF_NAME: `v${version}` }).status).toBe(0);
  expect(sh(check, work, { GITHUB_REF_NAME: 'v0.0.0-not-this' }).status).not.toBe(0);
  return { outputs, head: sh('git rev-parse HEAD', work).out.trim() };
}
