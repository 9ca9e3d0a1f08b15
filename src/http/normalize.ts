import type { ContractOperation } from './operations.js';

/** A request as the pipeline hands it to validation. */
export interface PlainRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[]>;
  body?: unknown;
}

const DECIMAL_INTEGER = /^\s*[+-]?\d+\s*$/;
/** What an integer parameter that is not written in decimal becomes: a value no coercion accepts. */
export const NOT_AN_INTEGER = 'not-a-decimal-integer';

function isDecimal(raw: string | string[]): boolean {
  // a duplicated key (an array) is judged by its last value, which is the one used
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  return typeof value !== 'string' || DECIMAL_INTEGER.test(value);
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The request as the contract's validators should judge it, as FastAPI would:
 * - query parameters the operation does not declare are ignored (the generated schemas would refuse them);
 * - an integer parameter not written in decimal (`1E2`, `0x10`, `0b1`, `0o7`, which ajv's Number() coercion
 *   reads) is swapped for a value that fails validation the way `abc` does, as pydantic's `int_parsing`.
 * Pure: the request given is not changed.
 */
export function normalize(
  operation: Pick<ContractOperation, 'template' | 'queryNames' | 'integerParams'>,
  request: PlainRequest,
): PlainRequest {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.query)) {
    if (operation.queryNames.has(name)) query[name] = value;
  }
  let path = request.path;
  if (operation.integerParams.length > 0) {
    const templateSegments = operation.template.split('/');
    const pathSegments = request.path.split('/');
    for (const param of operation.integerParams) {
      if (param.in === 'query') {
        const raw = query[param.name];
        if (raw !== undefined && !isDecimal(raw)) query[param.name] = NOT_AN_INTEGER;
        continue;
      }
      const index = templateSegments.indexOf(`{${param.name}}`);
      const segment = pathSegments[index];
      if (index >= 0 && segment !== undefined && !isDecimal(decoded(segment)))
        pathSegments[index] = NOT_AN_INTEGER;
    }
    path = pathSegments.join('/');
  }
  return { ...request, path, query };
}
