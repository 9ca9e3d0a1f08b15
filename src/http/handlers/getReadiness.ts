import { ERRORS } from '../../errors.js';
import { ok, open } from '../handler.js';

export const getReadiness = open('getReadiness', async ({ services }) => {
  try {
    await services.store.ping();
  } catch {
    throw ERRORS.notReady();
  }
  return ok({ status: 'ready' as const });
});
