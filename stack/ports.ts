/**
 * The ports `npm run stack` listens on, all on 127.0.0.1: HAProxy's public frontend and the API processes'
 * public listeners; HAProxy's admin frontend and the API processes' admin listeners (ADMIN_PORT), never
 * routed from the public frontend; metrics, PostgreSQL, and Swift's five servers.
 */
export interface StackPorts {
  haproxy: number;
  apis: number[];
  adminHaproxy: number;
  admins: number[];
  metrics: number[];
  postgres: number;
  /** Swift's proxy; its account, container and object servers and its memcached take the four after it. */
  swift: number;
}

/** The ports without STACK_PORT_BASE: those the README's examples use. */
export const PORTS: StackPorts = {
  haproxy: 8080,
  apis: [8081, 8082],
  adminHaproxy: 8090,
  admins: [8091, 8092],
  metrics: [9464, 9465],
  postgres: 5433,
  swift: 18080,
};

/** How many ports from STACK_PORT_BASE up the stack takes (Swift's five end at base + 44). */
export const PORT_BLOCK = 45;

/**
 * The stack's ports: PORTS, or with STACK_PORT_BASE=N a block of its own from N up, for a machine where
 * those are taken (another stack, a dev server on 8080): the public frontend on N, the API processes on N+1
 * and N+2, the admin frontend on N+10, the admin listeners on N+11 and N+12, metrics on N+20 and N+21,
 * PostgreSQL on N+30, Swift on N+40 to N+44.
 */
export function stackPorts(env: NodeJS.ProcessEnv = process.env): StackPorts {
  const raw = env.STACK_PORT_BASE?.trim();
  if (!raw) return PORTS;
  const base = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(base >= 1024 && base + PORT_BLOCK - 1 <= 65535))
    throw new Error(
      `STACK_PORT_BASE must be a port from 1024 to ${65536 - PORT_BLOCK} (the stack takes ${PORT_BLOCK} ports from there up), not "${raw}"`,
    );
  return {
    haproxy: base,
    apis: [base + 1, base + 2],
    adminHaproxy: base + 10,
    admins: [base + 11, base + 12],
    metrics: [base + 20, base + 21],
    postgres: base + 30,
    swift: base + 40,
  };
}

/** Every port of `ports`, each once: Swift's five included. */
export function allPorts(ports: StackPorts): number[] {
  return [
    ports.haproxy,
    ...ports.apis,
    ports.adminHaproxy,
    ...ports.admins,
    ...ports.metrics,
    ports.postgres,
    ...[0, 1, 2, 3, 4].map((i) => ports.swift + i),
  ];
}

export const ALL_PORTS = allPorts(PORTS);
