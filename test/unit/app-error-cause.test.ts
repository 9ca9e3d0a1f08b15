import { describe, expect, it } from 'vitest';
import { envelopeOf, ERRORS } from '../../src/kernel/errors.js';

describe('AppError carries its cause', () => {
  it('keeps the failure underneath as the standard `cause`, out of the envelope', () => {
    const underneath = new Error('ENOENT: the staging folder is gone');
    const error = ERRORS.uploadPartsGone().because(underneath);
    expect(error.cause).toBe(underneath);
    const envelope = envelopeOf(error, 'req-1');
    expect(JSON.stringify(envelope)).not.toContain('ENOENT');
    expect(envelope).toMatchObject({ error: error.error, message: error.message });
    // and an error without one has none
    expect(ERRORS.routeNotFound().cause).toBeUndefined();
  });
});
