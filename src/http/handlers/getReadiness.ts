import { ERRORS } from '../../kernel/errors.js';
import { ok, open } from '../handler.js';

/** Ready when both parts that hold data answer: the database and the object store (or the data directory). */
export const getReadiness = open('getReadiness', async ({ services }) => {
  const [database, files] = await Promise.allSettled([services.store.ping(), services.blobs.check()]);
  if (database.status === 'rejected') throw ERRORS.notReady('Database').because(database.reason);
  if (files.status === 'rejected') throw ERRORS.notReady('File store').because(files.reason);
  return ok({ status: 'ready' as const });
});
