import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { Revenue } from './revenue/service.js';
import type { Store } from './store/types.js';
import { Tenants } from './tenants/service.js';
import { type Clock, systemClock } from './time.js';

/** The domain, wired once per process; handlers reach it through their scope. */
export interface Services {
  config: Config;
  clock: Clock;
  logger: Logger;
  store: Store;
  tenants: Tenants;
  revenue: Revenue;
}

export function createServices(config: Config, store: Store, logger: Logger, clock: Clock = systemClock): Services {
  return {
    config,
    clock,
    logger,
    store,
    tenants: new Tenants(store, clock),
    revenue: new Revenue(store, clock),
  };
}
