import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import Router from '@koa/router';
import Koa, { type Context, type Next } from 'koa';
import type { OpenAPIBackend, Request as OpenApiRequest } from 'openapi-backend';
import { AppError } from '../errors.js';
import { accessLogWriter } from '../logger.js';
import { CONTRACT_PATH, DOCS_PATH } from '../paths.js';
import type { Services } from '../services.js';
import { createApi } from './api.js';
import { disposeUnreadBody } from './continue.js';
import { handlers } from './handlers/index.js';
import { createRateLimiter } from '../rate-limit/index.js';
import { limitAnonymous } from './rate-limit.js';
import { sendError } from './render.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** W3C trace context: version 00, a 32-hex trace id (not all zeros), a 16-hex parent id, flags. */
const TRACEPARENT = /^00-(?!0{32})([0-9a-f]{32})-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

function requestId(ctx: Context, next: Next) {
  const given = ctx.get('x-request-id');
  ctx.state.requestId = SANE_REQUEST_ID.test(given) ? given : randomUUID();
  ctx.state.traceId = TRACEPARENT.exec(ctx.get('traceparent'))?.[1];
  ctx.set('X-Request-Id', ctx.state.requestId as string);
  return next();
}

function accessLog(services: Services) {
  const writeAccess = accessLogWriter(services.logger);
  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (ctx.state.route as string | undefined) ?? ctx.path;
      // paths outside the contract are one label, or a scan of random paths would grow the series for ever
      services.metrics.request(ctx.state.route ? route : 'other', ctx.status, seconds);
      writeAccess({
        request_id: ctx.state.requestId as string,
        trace_id: ctx.state.traceId as string | undefined,
        method: ctx.method,
        route,
        status: ctx.status,
        duration_ms: seconds * 1000,
        tenant_id: (ctx.state.principal as { tenantId?: string } | undefined)?.tenantId,
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
            remote: ctx.ip,
          },
          'request detail',
        );
      }
    }
  };
}

/** A client that closed its connection mid-request: nothing failed on our side. */
function clientWentAway(ctx: Context, error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (
    ctx.req.destroyed &&
    (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNABORTED')
  );
}

function errorBoundary(services: Services) {
  return async (ctx: Context, next: Next) => {
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

/** The routes outside the contract: the docs, the contract itself, and `/` pointing at the docs. */
function publicRoutes(): Router {
  const router = new Router();
  router.get('/', (ctx) => ctx.redirect('/docs'));
  router.get('/openapi.yaml', (ctx) => {
    ctx.type = 'application/yaml';
    ctx.body = createReadStream(CONTRACT_PATH);
  });
  router.get(['/docs', '/docs/'], (ctx, next) => {
    if (!existsSync(DOCS_PATH)) return next();
    ctx.type = 'text/html';
    ctx.body = createReadStream(DOCS_PATH);
  });
  return router;
}

/**
 * A path segment whose percent-escapes do not decode (`%zz`, a cut UTF-8 sequence) is taken literally, as
 * Starlette does: it then fails validation like any other bad value, instead of throwing in the router.
 */
export function decodablePath(path: string): string {
  if (!path.includes('%')) return path;
  return path
    .split('/')
    .map((segment) => {
      try {
        decodeURIComponent(segment);
        return segment;
      } catch {
        return segment.replaceAll('%', '%25');
      }
    })
    .join('/');
}

function dispatch(api: OpenAPIBackend) {
  return async (ctx: Context) => {
    const request: OpenApiRequest = {
      // HEAD is answered as GET without a body (Node sends no body for HEAD)
      method: ctx.method === 'HEAD' ? 'GET' : ctx.method,
      path: decodablePath(ctx.path),
      query: ctx.query as Record<string, string | string[]>,
      headers: ctx.headers as Record<string, string | string[]>,
    };
    ctx.state.apiRequest = request;
    await api.handleRequest(request, ctx);
  };
}

/** The request's path through the server reads top to bottom. */
export async function createApp(services: Services): Promise<Koa> {
  const limiter = createRateLimiter(services.config, services.store);
  const api = await createApi(services, handlers, limiter);
  const app = new Koa();
  app.proxy = false;
  // whatever Koa itself catches goes to the same logger, never to stderr
  app.on('error', (error: unknown, ctx?: Context) => {
    if (ctx && clientWentAway(ctx, error)) return;
    services.logger.error({ err: error, request_id: ctx?.state.requestId }, 'response failed');
  });
  app.use(requestId);
  app.use(accessLog(services));
  app.use(disposeUnreadBody(services.config.uploadPartSize, services.config.bodyIdleTimeoutMs));
  app.use(errorBoundary(services));
  app.use(publicRoutes().routes());
  app.use(limitAnonymous(limiter));
  // everything else, the API and unknown paths alike, is openapi-backend's: its 404 and 405 are the envelope
  app.use(dispatch(api));
  return app;
}
