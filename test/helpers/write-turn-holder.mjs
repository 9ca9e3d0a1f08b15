// A second thread with its own connection to a SQLite file, as the run thread is: see write-turn-holder.ts.
import { register } from 'tsx/esm/api';

register();
await import('./write-turn-holder.ts');
