import type { PublicHandler } from '../state.js';
import { sendOk } from '../render.js';

export const getHealth: PublicHandler = async ({ ctx }) => {
  sendOk(ctx, { status: 'ok' });
};
