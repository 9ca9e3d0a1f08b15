// Run thread entry when running from TypeScript sources (tests, tsx): as src/pdf/thread-from-source.mjs.
import { register } from 'tsx/esm/api';

register();
await import('./run-thread-entry.ts');
