#!/usr/bin/env node
// `npm run icons`: every app icon from one source, resources/icon.svg. Chromium (the browser tests'
// Debian chromium, through playwright-core) renders the SVG at each size; png2icons packs the 1024 px
// render into Windows' .ico and macOS' .icns. Output, committed so packaging needs no browser:
//   resources/icons/<n>x<n>.png   Linux (electron-builder's icon set) and the window icon
//   resources/icon.ico            Windows (PNG entries, BMP below 64 px as the Windows shell expects)
//   resources/icon.icns           macOS
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import png2icons from 'png2icons';

const resources = new URL('../resources/', import.meta.url).pathname;
const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const svg = readFileSync(join(resources, 'icon.svg'));
const page = `<!doctype html><body style="margin:0;background:transparent">
  <img src="data:image/svg+xml;base64,${svg.toString('base64')}" style="display:block;width:100vw;height:100vh">`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const rendered = new Map();
try {
  const tab = await browser.newPage({ deviceScaleFactor: 1 });
  for (const size of SIZES) {
    await tab.setViewportSize({ width: size, height: size });
    await tab.setContent(page);
    await tab.locator('img').evaluate((img) => img.decode());
    rendered.set(size, await tab.screenshot({ omitBackground: true }));
  }
} finally {
  await browser.close();
}

mkdirSync(join(resources, 'icons'), { recursive: true });
for (const [size, png] of rendered) writeFileSync(join(resources, 'icons', `${size}x${size}.png`), png);
const largest = rendered.get(1024);
const ico = png2icons.createICO(largest, png2icons.BICUBIC, 0, false, true);
const icns = png2icons.createICNS(largest, png2icons.BICUBIC, 0);
if (!ico || !icns) throw new Error('png2icons could not convert resources/icons/1024x1024.png');
writeFileSync(join(resources, 'icon.ico'), ico);
writeFileSync(join(resources, 'icon.icns'), icns);
console.log(`icons: ${SIZES.length} PNGs, icon.ico (${ico.length} bytes) and icon.icns (${icns.length} bytes) in resources/`);
