// Worker entry when running from TypeScript sources (tests, tsx): Node 20 does not apply --import loaders
// given in a Worker's execArgv, so the thread registers tsx itself before loading the real entry.
import { register } from 'tsx/esm/api';

register();
await import('./thread.ts');
