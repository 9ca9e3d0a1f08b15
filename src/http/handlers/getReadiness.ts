import { ERRORS } from '../../errors.js';
import type { PublicHandler } from '../state.js';
import { sendOk } from '../render.js';

export const getReadiness: PublicHandler = async ({ ctx, services }) => {
  try {
    await services.store.ping();
  } catch {
    throw ERRORS.notReady();
  }
  sendOk(ctx, { status: 'ready' });
};
