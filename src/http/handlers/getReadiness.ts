import { ERRORS } from '../../errors.js';
import type { PublicHandler } from '../api.js';
import { sendOk } from '../render.js';

export const getReadiness: PublicHandler = async ({ ctx, services }) => {
  try {
    await services.store.ping();
  } catch {
    throw ERRORS.unavailable('Database unreachable');
  }
  sendOk(ctx, { status: 'ready' });
};
