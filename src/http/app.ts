import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import Koa, { type Context, type Next } from 'koa';
import type { OpenAPIBackend, Request as OpenApiRequest } from 'openapi-backend';
import { AppError } from '../errors.js';
import { CONTRACT_PATH, DOCS_PATH } from '../paths.js';
import type { Services } from '../services.js';
import { createApi } from './api.js';
import { handlers } from './handlers/index.js';
import { sendError } from './render.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function requestId(ctx: Context, next: Next) {
  const given = ctx.get('x-request-id');
  ctx.state.requestId = SANE_REQUEST_ID.test(given) ? given : randomUUID();
  ctx.set('X-Request-Id', ctx.state.requestId as string);
  return next();
}

function accessLog(services: Services) {
  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      services.logger.info(
        {
          request_id: ctx.state.requestId,
          method: ctx.method,
          route: (ctx.state.route as string | undefined) ?? ctx.path,
          status: ctx.status,
          duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
          tenant_id: (ctx.state.principal as { tenantId?: string } | undefined)?.tenantId,
        },
        'request',
      );
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

function staticDocs(ctx: Context, next: Next) {
  if (ctx.method !== 'GET') return next();
  if (ctx.path === '/openapi.yaml') {
    ctx.type = 'application/yaml';
    ctx.body = createReadStream(CONTRACT_PATH);
    return;
  }
  if (ctx.path === '/docs' || ctx.path === '/docs/') {
    if (!existsSync(DOCS_PATH)) return next();
    ctx.type = 'text/html';
    ctx.body = createReadStream(DOCS_PATH);
    return;
  }
  return next();
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
  const api = await createApi(services, handlers);
  const app = new Koa();
  app.proxy = false;
  // whatever Koa itself catches goes to the same logger, never to stderr
  app.on('error', (error: unknown, ctx?: Context) => {
    if (ctx && clientWentAway(ctx, error)) return;
    services.logger.error({ err: error, request_id: ctx?.state.requestId }, 'response failed');
  });
  app.use(requestId);
  app.use(accessLog(services));
  app.use(errorBoundary(services));
  app.use(staticDocs);
  app.use(dispatch(api));
  return app;
}
