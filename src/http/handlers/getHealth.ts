import { ok, open } from '../handler.js';

export const getHealth = open('getHealth', async () => ok({ status: 'ok' as const }));
