/**
 * The ports `npm run stack` listens on, all on 127.0.0.1: HAProxy's public frontend and the API processes'
 * public listeners; HAProxy's admin frontend and the API processes' admin listeners (ADMIN_PORT), never
 * routed from the public frontend; metrics, PostgreSQL, and Swift's five servers.
 */
export const PORTS = {
  haproxy: 8080,
  apis: [8081, 8082],
  adminHaproxy: 8090,
  admins: [8091, 8092],
  metrics: [9464, 9465],
  postgres: 5433,
  swift: 18080,
};

// Swift's proxy, account, container and object servers and its memcached take five ports from PORTS.swift
export const ALL_PORTS = [
  PORTS.haproxy,
  ...PORTS.apis,
  PORTS.adminHaproxy,
  ...PORTS.admins,
  ...PORTS.metrics,
  PORTS.postgres,
  ...[0, 1, 2, 3, 4].map((i) => PORTS.swift + i),
];
