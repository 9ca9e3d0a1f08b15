import type { ErrorObject } from 'ajv';
import type { ValidationIssue } from '../kernel/errors.js';

/**
 * Turns ajv errors of openapi-backend's request validators into FastAPI/pydantic v2 style `detail[]` items:
 * `loc` starts with where the value came from (`query`, `path`, `header`, `body`), every item is a string.
 */
export function toValidationIssues(errors: ErrorObject[]): ValidationIssue[] {
  // A body that is not JSON fails every schema too; the decode error is the one worth reporting.
  const parse = errors.find((e) => e.keyword === 'parse' && e.instancePath === '');
  if (parse) return [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }];

  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  // a uuid or a date that is also too long is reported as what it is not (as pydantic does): the length
  // bound is there for the contract's readers, the format says more
  const badFormat = new Set(
    errors.filter((e) => e.keyword === 'format').map((e) => toIssue(e).loc.join('\u0000')),
  );
  for (const error of errors) {
    const issue = toIssue(error);
    const at = issue.loc.join('\u0000');
    if (issue.type === 'string_too_long' && badFormat.has(at)) continue;
    const key = `${at}|${issue.type}`;
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  }
  return issues;
}

function locationOf(error: ErrorObject): string[] {
  const loc = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part, index) => (index === 0 && part === 'requestBody' ? 'body' : part));
  const params = error.params as Record<string, unknown>;
  if (typeof params.missingProperty === 'string') {
    loc.push(params.missingProperty === 'requestBody' && loc.length === 0 ? 'body' : params.missingProperty);
  }
  if (typeof params.additionalProperty === 'string') loc.push(params.additionalProperty);
  return loc;
}

function quoteList(values: unknown[]): string {
  const quoted = values.map((v) => `'${String(v)}'`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function toIssue(error: ErrorObject): ValidationIssue {
  const loc = locationOf(error);
  const params = error.params as Record<string, unknown>;
  const fromUrl = loc[0] === 'query' || loc[0] === 'path' || loc[0] === 'header';
  switch (error.keyword) {
    case 'required':
      return { loc, msg: 'Field required', type: 'missing' };
    case 'additionalProperties':
      return { loc, msg: 'Extra inputs are not permitted', type: 'extra_forbidden' };
    case 'type':
      return { loc, ...typeIssue(String(params.type), fromUrl, loc.length === 1) };
    case 'minimum':
      return {
        loc,
        msg: `Input should be greater than or equal to ${params.limit}`,
        type: 'greater_than_equal',
      };
    case 'maximum':
      return { loc, msg: `Input should be less than or equal to ${params.limit}`, type: 'less_than_equal' };
    case 'minLength':
      return {
        loc,
        msg: `String should have at least ${plural(Number(params.limit), 'character')}`,
        type: 'string_too_short',
      };
    case 'maxLength':
      return {
        loc,
        msg: `String should have at most ${plural(Number(params.limit), 'character')}`,
        type: 'string_too_long',
      };
    case 'enum':
      return { loc, msg: `Input should be ${quoteList(params.allowedValues as unknown[])}`, type: 'enum' };
    case 'pattern':
      return { loc, msg: `String should match pattern '${params.pattern}'`, type: 'string_pattern_mismatch' };
    case 'format':
      return { loc, ...formatIssue(String(params.format)) };
    default:
      return { loc, msg: error.message ?? 'Invalid value', type: 'value_error' };
  }
}

function typeIssue(expected: string, fromUrl: boolean, isBodyRoot: boolean): { msg: string; type: string } {
  switch (expected) {
    case 'integer':
      return fromUrl
        ? {
            msg: 'Input should be a valid integer, unable to parse string as an integer',
            type: 'int_parsing',
          }
        : { msg: 'Input should be a valid integer', type: 'int_type' };
    case 'number':
      return fromUrl
        ? { msg: 'Input should be a valid number, unable to parse string as a number', type: 'float_parsing' }
        : { msg: 'Input should be a valid number', type: 'float_type' };
    case 'string':
      return { msg: 'Input should be a valid string', type: 'string_type' };
    case 'boolean':
      return { msg: 'Input should be a valid boolean', type: 'bool_type' };
    case 'array':
      return { msg: 'Input should be a valid list', type: 'list_type' };
    default:
      return isBodyRoot
        ? {
            msg: 'Input should be a valid dictionary or object to extract fields from',
            type: 'model_attributes_type',
          }
        : { msg: 'Input should be a valid dictionary', type: 'dict_type' };
  }
}

function formatIssue(format: string): { msg: string; type: string } {
  switch (format) {
    case 'date':
      return {
        msg: 'Input should be a valid date or datetime, expected YYYY-MM-DD',
        type: 'date_from_datetime_parsing',
      };
    case 'date-time':
      return { msg: 'Input should be a valid datetime', type: 'datetime_parsing' };
    case 'uuid':
      return { msg: 'Input should be a valid UUID', type: 'uuid_parsing' };
    default:
      return { msg: `Input should be a valid ${format}`, type: 'value_error' };
  }
}
