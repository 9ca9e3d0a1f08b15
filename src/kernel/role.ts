/**
 * What a process of this service is for, the one vocabulary of start-up: `api` answers HTTP (`npm start`,
 * with the embedded worker unless EMBEDDED_WORKER=false), `worker` only executes runs and delivers webhooks
 * (`npm run worker`), `admin` is the operator's CLI (no HTTP, no jobs).
 */
export type Role = 'api' | 'worker' | 'admin';
