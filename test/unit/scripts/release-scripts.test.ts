/** The release scripts' pure parts: the update feed written into the app, and one latest-mac.yml for both Mac arches. */
import { describe, expect, it } from 'vitest';
import { homepageArgs, publishArgs } from '../../../scripts/package.mjs';
import { mergeLatestMac } from '../../../scripts/merge-release.mjs';

describe('npm run package: the update feed (scripts/package.mjs publishArgs)', () => {
  it('a generic HTTPS feed, or a GitHub repository, or none', () => {
    expect(publishArgs({ MOMO_UPDATE_URL: 'https://updates.example.com/momo-till/' })).toEqual([
      '-c.publish.provider=generic',
      '-c.publish.url=https://updates.example.com/momo-till/',
    ]);
    expect(publishArgs({ MOMO_UPDATE_GITHUB: 'momo-till/momo-till' })).toEqual([
      '-c.publish.provider=github',
      '-c.publish.owner=momo-till',
      '-c.publish.repo=momo-till',
    ]);
    expect(publishArgs({})).toEqual([]);
  });

  it('refuses a plain-http feed (except on loopback, for tests), a malformed repository, and both at once', () => {
    expect(() => publishArgs({ MOMO_UPDATE_URL: 'http://updates.example.com/' })).toThrow(/must be https/);
    expect(publishArgs({ MOMO_UPDATE_URL: 'http://127.0.0.1:8080/feed/' })[1]).toBe('-c.publish.url=http://127.0.0.1:8080/feed/');
    expect(() => publishArgs({ MOMO_UPDATE_GITHUB: 'https://github.com/a/b' })).toThrow(/owner\/repo/);
    expect(() => publishArgs({ MOMO_UPDATE_URL: 'https://a.example/', MOMO_UPDATE_GITHUB: 'a/b' })).toThrow(/not both/);
  });

  it('the address the deb carries comes from MOMO_HOMEPAGE, else the GitHub feed’s repository, else none', () => {
    expect(homepageArgs({ MOMO_HOMEPAGE: 'https://git.example/shop/till' })).toEqual([
      '-c.extraMetadata.homepage=https://git.example/shop/till',
    ]);
    expect(homepageArgs({ MOMO_UPDATE_GITHUB: 'shop/till' })).toEqual(['-c.extraMetadata.homepage=https://github.com/shop/till']);
    expect(homepageArgs({})).toEqual([]);
    expect(() => homepageArgs({ MOMO_HOMEPAGE: 'git.example/shop' })).toThrow(/http\(s\) address/);
  });
});

const mac = (arch: string, version = '1.3.0') =>
  [
    `version: ${version}`,
    'files:',
    `  - url: momo-till-${version}-mac-${arch}.zip`,
    `    sha512: ${arch}zip==`,
    '    size: 100',
    `  - url: momo-till-${version}-mac-${arch}.dmg`,
    `    sha512: ${arch}dmg==`,
    '    size: 200',
    `path: momo-till-${version}-mac-${arch}.zip`,
    `sha512: ${arch}zip==`,
    "releaseDate: '2026-11-26T00:00:00.000Z'",
    '',
  ].join('\n');

describe('the release workflow: one latest-mac.yml for both Mac arches (scripts/merge-release.mjs)', () => {
  it('lists both arches’ files, keeping the first build’s version and path', () => {
    const merged = mergeLatestMac([mac('arm64'), mac('x64')]);
    expect(merged.match(/- url: .*/g)).toEqual([
      '- url: momo-till-1.3.0-mac-arm64.zip',
      '- url: momo-till-1.3.0-mac-arm64.dmg',
      '- url: momo-till-1.3.0-mac-x64.zip',
      '- url: momo-till-1.3.0-mac-x64.dmg',
    ]);
    expect(merged).toContain('sha512: x64zip==');
    expect(merged).toMatch(/^version: 1\.3\.0\n/);
    expect(merged).toContain('path: momo-till-1.3.0-mac-arm64.zip\n');
  });

  it('refuses Mac builds of different versions', () => {
    expect(() => mergeLatestMac([mac('arm64', '1.3.0'), mac('x64', '1.2.9')])).toThrow(/different versions/);
  });
});
