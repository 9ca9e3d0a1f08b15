import type { Handlers } from '../handler.js';
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
import { createWebhookEndpoint } from './createWebhookEndpoint.js';
import { listWebhookEndpoints } from './listWebhookEndpoints.js';
import { getWebhookEndpoint } from './getWebhookEndpoint.js';
import { deleteWebhookEndpoint } from './deleteWebhookEndpoint.js';
import { rotateWebhookSecret } from './rotateWebhookSecret.js';
import { enableWebhookEndpoint } from './enableWebhookEndpoint.js';
import { listWebhookDeliveries } from './listWebhookDeliveries.js';
import { listEvents } from './listEvents.js';
import { streamEvents } from './streamEvents.js';
import { listApiVersions } from './listApiVersions.js';
import { adminCreateTenant } from './adminCreateTenant.js';
import { adminListTenants } from './adminListTenants.js';
import { adminGetTenant } from './adminGetTenant.js';
import { adminUpdateTenant } from './adminUpdateTenant.js';
import { adminSuspendTenant } from './adminSuspendTenant.js';
import { adminResumeTenant } from './adminResumeTenant.js';
import { adminDeleteTenant } from './adminDeleteTenant.js';
import { adminCreateTenantExport } from './adminCreateTenantExport.js';
import { adminGetTenantExport } from './adminGetTenantExport.js';
import { adminDownloadTenantExport } from './adminDownloadTenantExport.js';
import { adminIssueToken } from './adminIssueToken.js';
import { adminListTokens } from './adminListTokens.js';
import { adminRevokeToken } from './adminRevokeToken.js';
import { adminListAuditEvents } from './adminListAuditEvents.js';
import { adminAppendLedgerEntries } from './adminAppendLedgerEntries.js';
import { adminListLedgerEntries } from './adminListLedgerEntries.js';
import { adminListUsage } from './adminListUsage.js';
import { adminListAdminTokens } from './adminListAdminTokens.js';
import { adminIssueAdminToken } from './adminIssueAdminToken.js';
import { adminRevokeAdminToken } from './adminRevokeAdminToken.js';
import { adminReverseLedgerEntry } from './adminReverseLedgerEntry.js';
import { adminGetTenantUsage } from './adminGetTenantUsage.js';

/** operationId -> handler; each handler lives in the file named after its operationId. */
export const handlers: Handlers = {
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
    createWebhookEndpoint,
    listWebhookEndpoints,
    getWebhookEndpoint,
    deleteWebhookEndpoint,
    rotateWebhookSecret,
    enableWebhookEndpoint,
    listWebhookDeliveries,
    listEvents,
    streamEvents,
    listApiVersions,
    // the platform's admin API, served on the admin listener only
    adminCreateTenant,
    adminListTenants,
    adminGetTenant,
    adminUpdateTenant,
    adminSuspendTenant,
    adminResumeTenant,
    adminDeleteTenant,
    adminCreateTenantExport,
    adminGetTenantExport,
    adminDownloadTenantExport,
    adminIssueToken,
    adminListTokens,
    adminRevokeToken,
    adminListAuditEvents,
    adminAppendLedgerEntries,
    adminListLedgerEntries,
    adminListUsage,
    adminListAdminTokens,
    adminIssueAdminToken,
    adminRevokeAdminToken,
    adminReverseLedgerEntry,
    adminGetTenantUsage,
  },
};
