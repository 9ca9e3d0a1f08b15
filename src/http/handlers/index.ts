import type { HandlerSet } from '../api.js';
import { abortUpload } from './abortUpload.js';
import { completeUpload } from './completeUpload.js';
import { createRun } from './createRun.js';
import { createUpload } from './createUpload.js';
import { downloadRunFile } from './downloadRunFile.js';
import { getFile } from './getFile.js';
import { getHealth } from './getHealth.js';
import { getReadiness } from './getReadiness.js';
import { getRevenueDashboard } from './getRevenueDashboard.js';
import { getRun } from './getRun.js';
import { getUpload } from './getUpload.js';
import { listRevenueTransactions } from './listRevenueTransactions.js';
import { listRuns } from './listRuns.js';
import { listUploads } from './listUploads.js';
import { cancelRun } from './cancelRun.js';
import { rerunRun } from './rerunRun.js';
import { uploadPart } from './uploadPart.js';

/** operationId -> handler; each handler lives in the file named after its operationId. */
export const handlers: HandlerSet = {
  public: { getHealth, getReadiness },
  authed: {
    getRevenueDashboard,
    listRevenueTransactions,
    createUpload,
    listUploads,
    getUpload,
    uploadPart,
    completeUpload,
    abortUpload,
    getFile,
    createRun,
    listRuns,
    getRun,
    rerunRun,
    cancelRun,
    downloadRunFile,
  },
};
