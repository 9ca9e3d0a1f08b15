import { refuseUnsupportedRuntime } from '../start/runtime.js';
import { runAdmin } from './admin-commands.js';

refuseUnsupportedRuntime();
process.exitCode = await runAdmin(process.argv.slice(2), {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
