import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { answerClientError } from '../http/client-error.js';
import { startMetricsServer } from '../metrics/server.js';
import type { Config } from '../kernel/config.js';
import type Koa from 'koa';
import { createApp } from '../http/app.js';
import type { AppState } from '../http/state.js';
import type { Logger } from '../kernel/logger.js';
import type { Services } from '../composition/services.js';
import { createRuntime } from './create-runtime.js';
import { describeStore } from '../store/open.js';

export interface RunningServer {
  url: string;
  /** Where `/metrics` is served, when METRICS_PORT is not 0. */
  metricsUrl?: string;
  /** Where the admin API is served, when ADMIN_PORT is set. */
  adminUrl?: string;
  services: Services;
  close(): Promise<void>;
}

/** On an empty database the first start creates a `demo` tenant and prints its token, once. */
async function seedDemoTenant(services: Services): Promise<void> {
  if ((await services.store.tenants.list()).length > 0) return;
  const demo = await services.tenants.create('demo');
  process.stdout.write(
    `\nCreated tenant "demo" (${demo.tenant_id}). Its API token, shown only now:\n\n  ${demo.token}\n\n`,
  );
}

/** An HTTP listener for a Koa app, with the contract's deliberate limits. */
async function listen(
  app: Koa<AppState>,
  config: Config,
  port: number,
  host: string,
  logger: Logger,
): Promise<Server> {
  const server: Server = createServer(
    {
      // deliberate limits (see the contract): slow headers and endless requests do not hold a socket for
      // ever; Node checks them every connectionsCheckingInterval, 30 s unless told otherwise
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
    },
    app.callback(),
  );
  // the app says "100 Continue" itself, once it wants the body (http/continue.ts)
  server.on('checkContinue', app.callback());
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) =>
    answerClientError(error, socket, logger),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

function urlOf(server: Server, bound: string): string {
  const { port } = server.address() as AddressInfo;
  const host = bound === '0.0.0.0' || bound === '::' ? '127.0.0.1' : bound;
  // an IPv6 address is bracketed in a URL (http://[::1]:8080)
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export async function startServer(
  config: Config,
  logger: Logger,
  /** Told the URLs as soon as the ports are bound, before anything else is printed. */
  announce?: (url: string, metricsUrl?: string, adminUrl?: string) => void,
): Promise<RunningServer> {
  const started = performance.now();
  const runtime = await createRuntime(config, 'api', logger);
  const { services } = runtime;
  const app = await createApp(services);
  const server = await listen(app, config, config.port, config.host, logger);
  let adminServer: Server | undefined;
  try {
    if (config.adminPort !== undefined) {
      const adminApp = await createApp(services, 'admin');
      adminServer = await listen(adminApp, config, config.adminPort, config.adminHost, logger);
    }
  } catch (error) {
    server.close();
    throw Object.assign(error as Error, { port: config.adminPort, portSetting: 'ADMIN_PORT' });
  }
  const adminUrl = adminServer && urlOf(adminServer, config.adminHost);
  server.keepAliveTimeout = 65_000;
  // connections that have not sent a request yet: a client's spare connection is closed at shutdown rather
  // than waited for (Node counts it neither idle nor busy)
  const open = new Set<Socket>();
  const fresh = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    fresh.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (req: IncomingMessage) => fresh.delete(req.socket));
  const url = urlOf(server, config.host);
  const host = new URL(url).hostname;
  let metricsServer: Server | undefined;
  try {
    if (config.metricsPort > 0) {
      metricsServer = await startMetricsServer(services.metrics, config.metricsPort, config.host, logger);
    }
  } catch (error) {
    server.close();
    adminServer?.close();
    throw Object.assign(error as Error, { port: config.metricsPort, portSetting: 'METRICS_PORT' });
  }
  const metricsUrl = metricsServer
    ? `http://${host}:${(metricsServer.address() as AddressInfo).port}`
    : undefined;
  announce?.(url, metricsUrl, adminUrl);
  // only once the port is ours: a start that fails to bind must not print a token it then loses
  if (config.seedDemoTenant) await seedDemoTenant(services);
  logger.info(
    {
      url,
      admin_url: adminUrl,
      node: process.version,
      store: describeStore(config),
      data_dir: config.dataDir,
      startup_ms: Math.round(performance.now() - started),
    },
    'listening',
  );

  // the embedded worker (runs and webhooks, unless EMBEDDED_WORKER=false), the sweep and store maintenance
  runtime.start();

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      // stop accepting at once; let in-flight requests and the current page of each run finish; then
      // release the parser threads and the database
      const drained = new Promise<void>((resolve) => {
        // keep-alive connections whose last request ends while draining are closed as they become idle
        const idle = setInterval(() => server.closeIdleConnections(), 100);
        server.close(() => {
          clearInterval(idle);
          resolve();
        });
        server.closeIdleConnections();
        for (const socket of open) if (fresh.has(socket)) socket.destroy();
      });
      metricsServer?.close();
      // the admin API's calls are short: its open connections end with the server
      adminServer?.close();
      adminServer?.closeAllConnections();
      // event streams never end on their own: they end now, and their clients reconnect elsewhere
      services.streams.close();
      await Promise.all([drained, runtime.stopJobs()]);
      await runtime.close();
    })();
    return closing;
  };
  return { url, metricsUrl, adminUrl, services, close };
}
