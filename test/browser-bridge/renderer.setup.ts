/**
 * Builds the renderer once per run for every test file that opens the screens (each file used to build
 * its own), and removes it at the end. Files read the folder with `builtRenderer()`.
 */
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { buildRenderer } from './build-renderer.js';

declare module 'vitest' {
  export interface ProvidedContext {
    rendererDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = await buildRenderer();
  project.provide('rendererDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
