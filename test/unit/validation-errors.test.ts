import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { toValidationIssues } from '../../src/http/validation-errors.js';

const error = (e: Partial<ErrorObject>): ErrorObject =>
  ({ instancePath: '', schemaPath: '#', params: {}, keyword: 'type', ...e }) as ErrorObject;

describe('toValidationIssues', () => {
  it('names body locations after FastAPI and escapes nothing it should not', () => {
    expect(
      toValidationIssues([
        error({
          keyword: 'required',
          instancePath: '/requestBody',
          params: { missingProperty: 'upload_id' },
        }),
        error({ keyword: 'required', instancePath: '', params: { missingProperty: 'requestBody' } }),
        error({ keyword: 'minLength', instancePath: '/requestBody/file_name', params: { limit: 1 } }),
        error({ keyword: 'type', instancePath: '/requestBody/a~1b', params: { type: 'boolean' } }),
      ]),
    ).toEqual([
      { loc: ['body', 'upload_id'], msg: 'Field required', type: 'missing' },
      { loc: ['body'], msg: 'Field required', type: 'missing' },
      {
        loc: ['body', 'file_name'],
        msg: 'String should have at least 1 character',
        type: 'string_too_short',
      },
      { loc: ['body', 'a/b'], msg: 'Input should be a valid boolean', type: 'bool_type' },
    ]);
  });

  it('reports one item per problem', () => {
    const twice = error({ keyword: 'maximum', instancePath: '/query/limit', params: { limit: 100 } });
    expect(toValidationIssues([twice, twice])).toHaveLength(1);
  });

  it('a JSON decode error hides the schema errors it causes', () => {
    expect(
      toValidationIssues([
        error({ keyword: 'parse', instancePath: '' }),
        error({ keyword: 'type', instancePath: '/requestBody', params: { type: 'object' } }),
      ]),
    ).toEqual([{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }]);
  });
});
