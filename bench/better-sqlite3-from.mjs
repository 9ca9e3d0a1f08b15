// `node --import ./bench/better-sqlite3-from.mjs`: `better-sqlite3` resolves to the copy in the directory
// $BENCH_BETTER_SQLITE3 instead of the project's, so that scenario 12 can run the same build on a Node.js the
// project's better-sqlite3 does not support, with the same SQLite on both sides.
import { register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const copy = process.env.BENCH_BETTER_SQLITE3;
if (copy) {
  const target = pathToFileURL(path.join(copy, 'lib', 'index.js')).href;
  const hooks = `export async function resolve(specifier, context, next) {
  return next(specifier === 'better-sqlite3' ? ${JSON.stringify(target)} : specifier, context);
}`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}
