/**
 * The oldest Node.js major the service runs on. better-sqlite3 13 needs 22 (on 20 it crashes the process the
 * first time it opens a database), and the project brings and tests 24: `npm start` and the other npm scripts
 * run on the Node.js 24 in node_modules/.bin, so this only meets someone who runs `node dist/...` by hand.
 */
const OLDEST_MAJOR = 22;

/** One line for an unsupported Node.js, or undefined. */
export function unsupportedRuntime(version: string = process.versions.node): string | undefined {
  const major = Number(version.split('.')[0]);
  if (major >= OLDEST_MAJOR) return undefined;
  return (
    `start-up: Node.js v${version} is not supported (the service runs on Node.js 24); start it through npm ` +
    '(`npm start`, `npm run worker`), which runs the Node.js 24 the project installs in node_modules/.bin'
  );
}

/**
 * Ends the process with that line and exit code 1 when the runtime is too old, unless
 * ALLOW_UNSUPPORTED_NODE=true: the bench's runtime comparison (scenario 12) runs the same build on Node.js 20
 * with a better-sqlite3 built for it.
 */
export function refuseUnsupportedRuntime(): void {
  if (process.env.ALLOW_UNSUPPORTED_NODE === 'true') return;
  const problem = unsupportedRuntime();
  if (!problem) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}

/**
 * The Node.js options the server and the worker run with (`npm start`, `npm run worker`, the stack, the
 * bench). Node.js 24 lets the young generation grow to 64 MB of new space, filled by whatever allocates
 * first (the request validators' warm-up, an upload's body chunks), and the process's RSS keeps those pages:
 * 33 MB of an upload's 230-238 MB peak (bench/README.md, scenario 10). Semi-spaces of 8 MB hold it to 16 MB:
 * the upload's peak 178-186 MB against 185-211 MB with 16. The flag also caps every isolate started later,
 * so the parser threads set their own back (src/pdf/pool.ts). V8 sizes the main heap when the process
 * starts, so this must be a node option: `v8.setFlagsFromString` at the top of an entry point changes
 * nothing for the heap that already exists (only for threads started later).
 */
export const SERVER_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=8'];
