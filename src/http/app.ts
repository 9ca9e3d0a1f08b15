import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { dump, load } from 'js-yaml';
import Router from '@koa/router';
import Koa, { type Context } from 'koa';
import { AppError, ERRORS } from '../kernel/errors.js';
import { requestArrived } from '../threads/give-way.js';
import { accessLogWriter } from '../kernel/logger.js';
import {
  ADMIN_CONTRACT_PATH,
  ADMIN_DOCS_PATH,
  CONTRACT_PATH,
  DOCS_PATH,
  PUBLIC_CONTRACT_PATH,
} from '../contract/paths.js';
import type { Services } from '../composition/services.js';
import { disposeUnreadBody } from './continue.js';
import { FairTurns, takeTurn } from './fair-turns.js';
import { adminCallers } from './admin-origin.js';
import { handlers } from './handlers/index.js';
import { idempotency } from './idempotency.js';
import { type Audience, Contract } from './operations.js';
import {
  applyVersion,
  authenticate,
  checkHandlers,
  invoke,
  readBody,
  resolveTenant,
  route,
  validate,
} from './pipeline.js';
import { createRateLimiters } from '../rate-limit/index.js';
import {
  clientAddress,
  limitAnonymous,
  limitTenant,
  paceAddress,
  RecentlyValidTokens,
} from './rate-limit.js';
import { sendError } from './render.js';
import { docsPages } from './docs-pages.js';
import { type AppState, Stages, type Step } from './state.js';
import type { ContractDocument } from '../versions/change.js';
import { contractAt, NEWEST_VERSION, supportedVersion, versionRefusal } from '../versions/registry.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** W3C trace context: version 00, a 32-hex trace id (not all zeros), a 16-hex parent id, flags. */
const TRACEPARENT = /^00-(?!0{32})([0-9a-f]{32})-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

const requestId: Step = (ctx, next) => {
  const given = ctx.get('x-request-id');
  ctx.state.requestId = SANE_REQUEST_ID.test(given) ? given : randomUUID();
  ctx.state.traceId = TRACEPARENT.exec(ctx.get('traceparent'))?.[1];
  ctx.set('X-Request-Id', ctx.state.requestId);
  return next();
};

/**
 * Every answer of the tenants' listener says the API version it was rendered at (`Open-Tenant-Version`),
 * failures included: the header's version when it names a supported one, else the newest, until the
 * version step settles it (the tenant's pin).
 */
const answeredVersion: Step = async (ctx, next) => {
  ctx.state.apiVersion = supportedVersion(ctx.get('open-tenant-version')) ?? NEWEST_VERSION;
  try {
    await next();
  } finally {
    // Koa sends the headers after the last middleware returns, a stream's too: this is in time
    ctx.set('Open-Tenant-Version', ctx.state.apiVersion);
  }
};

function accessLog(services: Services): Step {
  const writeAccess = accessLogWriter(services.logger);
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // the operation, not the path with its ids; paths outside the contract are one metrics label, or a
      // scan of random paths would grow the series for ever
      const operationId = ctx.state.operation?.id;
      services.metrics.request(operationId ?? 'other', ctx.status, seconds);
      writeAccess({
        request_id: ctx.state.requestId,
        trace_id: ctx.state.traceId,
        method: ctx.method,
        route: operationId ?? ctx.path,
        status: ctx.status,
        duration_ms: seconds * 1000,
        tenant_id: ctx.state.principal?.tenantId,
      });
      if (services.logger.isLevelEnabled('debug')) {
        services.logger.debug(
          {
            request_id: ctx.state.requestId,
            path: ctx.path,
            query: ctx.querystring,
            request_length: ctx.request.length,
            response_length: ctx.response.length,
            user_agent: ctx.get('user-agent'),
            remote: ctx.state.clientAddress,
          },
          'request detail',
        );
      }
    }
  };
}

const CLIENT_GONE = new Set(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE', 'ECONNABORTED', 'EPIPE']);

/**
 * A client that closed its connection mid-request or mid-answer (an event stream it stopped reading is the
 * usual case): nothing failed on our side. A request already read whole is not destroyed itself when its
 * connection goes, so the socket is asked too.
 */
function clientWentAway(ctx: Context, error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (
    (ctx.req.destroyed || ctx.req.socket.destroyed || ctx.res.destroyed) &&
    code !== undefined &&
    CLIENT_GONE.has(code)
  );
}

function errorBoundary(services: Services): Step {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (clientWentAway(ctx, error)) {
        services.logger.info({ request_id: ctx.state.requestId }, 'client closed the connection mid-request');
      } else if (!(error instanceof AppError) || error.status >= 500) {
        services.logger.error({ err: error, request_id: ctx.state.requestId }, 'request failed');
      }
      sendError(ctx, error);
    }
  };
}

/** The admin listener's part of the contract, written by scripts/build-docs.mjs beside the public one. */

/**
 * The routes outside the contract: the docs, the contract itself, and `/` pointing at the docs. Each
 * listener's built contract and reference name a relative server, the one they were read from; before
 * dist/ is built the source contract stands in.
 */
function publicRoutes(audience: Audience): Router {
  const docs = audience === 'admin' ? ADMIN_DOCS_PATH : DOCS_PATH;
  const contract = audience === 'admin' ? ADMIN_CONTRACT_PATH : PUBLIC_CONTRACT_PATH;
  const served = () => (existsSync(contract) ? contract : CONTRACT_PATH);
  const versioned = new Map<string, string>();
  const router = new Router();
  router.get('/', (ctx) => ctx.redirect('/docs'));
  router.get('/openapi.yaml', (ctx) => {
    const asked = ctx.query.version;
    ctx.type = 'application/yaml';
    if (asked === undefined || asked === NEWEST_VERSION) {
      ctx.body = createReadStream(served());
      return;
    }
    const version = typeof asked === 'string' ? supportedVersion(asked) : undefined;
    if (version === undefined) throw ERRORS.unsupportedVersion(versionRefusal(String(asked)));
    // an older version's contract is the listener's own, taken down by each change since (src/versions)
    let text = versioned.get(version);
    if (text === undefined) {
      const newest = load(readFileSync(served(), 'utf8')) as ContractDocument;
      text = dump(contractAt(newest, version), { lineWidth: -1, noRefs: true });
      versioned.set(version, text);
    }
    ctx.body = text;
  });
  router.get(['/docs', '/docs/'], (ctx, next) => {
    if (!existsSync(docs)) return next();
    ctx.type = 'text/html';
    ctx.body = createReadStream(docs);
  });
  return router;
}

/**
 * The request's path through the server reads top to bottom. A tenant's listener (the public port) serves
 * the tenants' operations with tenants' tokens; the admin listener the platform's with admin tokens.
 */
export async function createApp(
  services: Services,
  audience: Audience = 'tenant',
  /** The admin app's in-process caller (http/admin-origin.ts adminCallers): the admin command line's. */
  operatorSecret?: string,
): Promise<Koa<AppState>> {
  const limiters = createRateLimiters(services.config, services.store);
  const contract = await Contract.load();
  checkHandlers(contract, handlers);
  // one contract per process: the public listener's app warms every operation's validators, the admin one's too
  if (services.config.validatorsAtStart && audience === 'tenant') contract.warmUp();
  const app = new Koa<AppState>();
  app.proxy = false;
  // whatever Koa itself catches goes to the same logger, never to stderr
  app.on('error', (error: unknown, ctx?: Context) => {
    if (ctx && clientWentAway(ctx, error)) return;
    services.logger.error({ err: error, request_id: ctx?.state.requestId }, 'response failed');
  });
  // first, so that a request refused later still counts: batch threads give way to every request
  app.use((_ctx, next) => {
    requestArrived();
    return next();
  });
  app.use(requestId);
  app.use(clientAddress(services.config.trustProxy));
  app.use(accessLog(services));
  app.use(disposeUnreadBody(services.config.uploadPartSize, services.config.bodyIdleTimeoutMs));
  if (audience === 'tenant') app.use(answeredVersion);
  app.use(errorBoundary(services));
  app.use(publicRoutes(audience).routes());
  // the changelog and each supported version's reference (scripts/build-docs.mjs), beside the tenants' /docs
  if (audience === 'tenant') app.use(docsPages().routes());
  app.use(limitAnonymous(limiters.addresses));
  // everything else, the API and unknown paths alike, is the contract's: its 404 and 405 are the envelope
  const validTokens = new RecentlyValidTokens();
  app.use(
    Stages.start()
      .then(route(contract, audience))
      .then(paceAddress(limiters.addresses, validTokens))
      .then(
        authenticate(
          audience === 'admin' ? adminCallers(services.adminTokens, operatorSecret) : services.tenants,
        ),
      )
      .then(limitTenant(limiters.tenants, limiters.addresses, validTokens))
      .then(takeTurn(new FairTurns()))
      .then(readBody())
      .then(applyVersion())
      .then(validate(contract))
      .then(resolveTenant(services.store.tenants))
      .then(idempotency(services, handlers))
      .then(invoke(handlers, services))
      .middleware(),
  );
  return app;
}
