// A worker thread runs plain Node: register tsx's loader, then run the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./day-close-worker.ts');
