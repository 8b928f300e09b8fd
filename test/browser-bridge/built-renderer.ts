/** The renderer built once for this run by renderer.setup.ts (read-only: files share it). */
import { inject } from 'vitest';
import './renderer.setup.js';

export function builtRenderer(): string {
  const dir = inject('rendererDir');
  if (!dir) throw new Error('No built renderer: this project needs test/browser-bridge/renderer.setup.ts as its globalSetup');
  return dir;
}
