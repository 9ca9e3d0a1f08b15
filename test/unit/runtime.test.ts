import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/contract/paths.js';
import { SERVER_NODE_OPTIONS, unsupportedRuntime } from '../../src/start/runtime.js';

describe('the runtime check at start', () => {
  it("refuses Node.js 20 with one line that says how to start on the project's Node.js 24", () => {
    expect(unsupportedRuntime('20.20.2')).toBe(
      'start-up: Node.js v20.20.2 is not supported (the service runs on Node.js 24); start it through npm ' +
        '(`npm start`, `npm run worker`), which runs the Node.js 24 the project installs in node_modules/.bin',
    );
    expect(unsupportedRuntime('21.7.3')).toMatch(/^start-up: Node\.js v21\.7\.3 is not supported/);
  });

  it('accepts 22 and later, and the tests themselves run on 24', () => {
    expect(unsupportedRuntime('22.12.0')).toBeUndefined();
    expect(unsupportedRuntime('24.21.0')).toBeUndefined();
    expect(process.versions.node.split('.')[0]).toBe('24');
  });
});

describe("the server's Node.js options", () => {
  it('are the ones `npm start` and `npm run worker` run with (the bench and the stack take the constant)', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const options = SERVER_NODE_OPTIONS.join(' ');
    expect(scripts.start).toBe(`node ${options} dist/src/start/server.js`);
    expect(scripts.worker).toBe(`node ${options} dist/src/start/worker.js`);
  });
});
