import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import type { Document } from 'openapi-backend';
import { CONTRACT_PATH } from '../contract/paths.js';

let parsed: Document | undefined;

/**
 * openapi.yaml parsed, a copy of its own for each caller (openapi-backend dereferences the object it is
 * given in place). Given a path, openapi-backend parsed the YAML twice and dereferenced it with
 * json-schema-ref-parser: about 0.3 s of CPU in every process that starts a server, tests' included. Given
 * the parsed object in quick mode it dereferences with its synchronous resolver, which the contract allows:
 * every $ref is local, none has siblings, none points at another $ref (test/unit/contract.test.ts).
 */
export function contractDocument(): Document {
  parsed ??= load(readFileSync(CONTRACT_PATH, 'utf8')) as Document;
  return structuredClone(parsed);
}
