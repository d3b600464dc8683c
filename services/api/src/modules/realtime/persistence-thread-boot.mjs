// A worker thread does not inherit the API's TypeScript loader (`node --import tsx`, or
// Vitest's): it registers tsx itself, then loads the thread's module.
import { register } from 'tsx/esm/api';

register();
await import('./persistence-thread.ts');
