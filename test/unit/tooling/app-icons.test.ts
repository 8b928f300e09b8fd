/**
 * resources/ holds the app icon in the forms electron-builder reads (made by npm run icons from
 * resources/icon.svg): a PNG set for Linux and the window, icon.ico for Windows, icon.icns for macOS.
 * The containers are read back entry by entry, so a truncated or mislabelled file fails here, not
 * at packaging time on another machine.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const RESOURCES = join(ROOT, 'resources');

/** Width, height and colour type from a PNG's IHDR chunk. */
function pngHeader(bytes: Buffer): { width: number; height: number; colourType: number } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(bytes.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), colourType: bytes[25] ?? -1 };
}

describe('app icon in resources/', () => {
  it('has a square, transparent-capable PNG for every size its name says (Linux set, window icon)', () => {
    const names = readdirSync(join(RESOURCES, 'icons'));
    for (const size of [16, 32, 48, 64, 128, 256, 512, 1024]) expect(names).toContain(`${size}x${size}.png`);
    for (const name of names) {
      const size = Number(/^(\d+)x\1\.png$/.exec(name)?.[1]);
      expect(pngHeader(readFileSync(join(RESOURCES, 'icons', name))), name).toEqual({ width: size, height: size, colourType: 6 });
    }
  });

  it('has a Windows icon.ico with 16 to 256 px entries that lie inside the file', () => {
    const ico = readFileSync(join(RESOURCES, 'icon.ico'));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]); // reserved, type 1 = icon
    const sizes: number[] = [];
    for (let i = 0; i < ico.readUInt16LE(4); i += 1) {
      const entry = 6 + 16 * i;
      sizes.push(ico[entry] || 256); // a width byte of 0 means 256
      expect(ico.readUInt32LE(entry + 12) + ico.readUInt32LE(entry + 8)).toBeLessThanOrEqual(ico.length);
    }
    expect(sizes).toEqual(expect.arrayContaining([16, 32, 48, 256]));
  });

  it('has a macOS icon.icns whose entries add up to its length, up to the 1024 px one', () => {
    const icns = readFileSync(join(RESOURCES, 'icon.icns'));
    expect(icns.toString('latin1', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const types: string[] = [];
    let offset = 8;
    while (offset < icns.length) {
      types.push(icns.toString('latin1', offset, offset + 4));
      offset += icns.readUInt32BE(offset + 4);
    }
    expect(offset).toBe(icns.length);
    expect(types).toEqual(expect.arrayContaining(['ic07', 'ic08', 'ic09', 'ic10'])); // 128, 256, 512, 1024 px
  });

  it('is what electron-builder.yml names for each platform, and the window icon is packaged', () => {
    const config = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8');
    expect(config).toMatch(/^\s+buildResources: resources\b/m);
    const icons = [...config.matchAll(/^\s+icon: (\S+)/gm)].map((m) => m[1] ?? '');
    expect(icons.sort()).toEqual(['icon.icns', 'icon.ico', 'icons']);
    for (const icon of icons) expect(existsSync(join(RESOURCES, icon)), icon).toBe(true);
    const windowTs = readFileSync(join(ROOT, 'electron/main/window.ts'), 'utf8');
    const windowIcon = /from '\.\.\/\.\.\/(resources\/[^']+)\?asset'/.exec(windowTs)?.[1] ?? 'missing';
    expect(existsSync(join(ROOT, windowIcon))).toBe(true);
    expect(config).toContain(`- ${windowIcon}`);
  });
});
