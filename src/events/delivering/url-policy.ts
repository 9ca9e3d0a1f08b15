import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Where a webhook may be sent: what registration checks, and what delivery checks again. */
export interface UrlPolicy {
  allowHttp: boolean;
  allowPrivateNetworks: boolean;
  /** Name resolution and the whole delivery are bounded by this. */
  timeoutMs: number;
  /** The DNS servers names are resolved with (`host` or `host:port`); empty: the system's (resolv.conf). */
  dnsServers: string[];
}

/** An endpoint URL or address the policy refuses; the message says why, for the 422 and the attempt log. */
export class UrlNotAllowed extends Error {}

/**
 * The refusal of a host, one message whatever the name resolved to (or whether it resolved at all): a
 * tenant must not learn from it what an internal name points to.
 */
export function hostRefusal(policy: Pick<UrlPolicy, 'allowPrivateNetworks'>): string {
  return policy.allowPrivateNetworks
    ? "The URL's host does not resolve within WEBHOOK_TIMEOUT_MS"
    : "The URL's host must resolve, within WEBHOOK_TIMEOUT_MS, to public internet addresses only (WEBHOOK_ALLOW_PRIVATE_NETWORKS is off)";
}

/** IPv6 global unicast (RFC 4291 section 2.4); every other IPv6 block, IPv4-compatible `::/96` included, is refused. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** IPv4-compatible IPv6 (RFC 4291, deprecated). */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * An IPv6 address as the WHATWG URL parser (and so the connection) writes it: ipaddr.js reads `::a.b.c.d`
 * as IPv4-mapped, which it is not.
 */
function canonical(address: string): string | undefined {
  if (!address.includes(':')) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

/**
 * Global unicast only. IPv4: not one of ipaddr.js's special ranges (loopback, RFC 1918, link-local, CGNAT,
 * multicast, unspecified, broadcast, reserved and documentation blocks). IPv6: inside 2000::/3 and none of
 * its special blocks (Teredo, 6to4, documentation, ORCHID, benchmarking, AS112 and the IETF protocol
 * assignments). An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function addressAllowed(written: string): boolean {
  const address = canonical(written);
  if (address === undefined || !ipaddr.isValid(address)) return false;
  const exact = ipaddr.parse(address);
  if (exact.kind() === 'ipv6' && exact.match(IPV4_COMPATIBLE)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  return parsed.match(GLOBAL_UNICAST_V6) && parsed.range() === 'unicast';
}

/** Checks the URL's form: https (or http when allowed), no credentials, a host. */
export function parseEndpointUrl(raw: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlNotAllowed('The URL is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    throw new UrlNotAllowed(
      policy.allowHttp
        ? 'The URL must be http or https'
        : 'The URL must be https (WEBHOOK_ALLOW_HTTP is off)',
    );
  }
  if (url.username || url.password) throw new UrlNotAllowed('The URL must not hold credentials');
  if (!url.hostname) throw new UrlNotAllowed('The URL has no host');
  return url;
}

/** The bare host of a URL: IPv6 literals lose their brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * c-ares resolvers, one per server list and timeout: on the event loop (getaddrinfo would take one of
 * libuv's four threads, shared with the file system, for as long as a resolver stays silent), with a
 * timeout of their own.
 */
const resolvers = new Map<string, Resolver>();

function resolverFor(policy: UrlPolicy): Resolver {
  const key = `${policy.timeoutMs}|${policy.dnsServers.join(',')}`;
  let resolver = resolvers.get(key);
  if (!resolver) {
    resolver = new Resolver({ timeout: policy.timeoutMs, tries: 1 });
    if (policy.dnsServers.length > 0) resolver.setServers(policy.dnsServers);
    resolvers.set(key, resolver);
  }
  return resolver;
}

/** RFC 6761: localhost names are loopback, without asking a DNS server (c-ares does not read the hosts file). */
const isLocalhost = (host: string) => host === 'localhost' || host.endsWith('.localhost');

async function addressesOf(host: string, policy: UrlPolicy): Promise<{ address: string; family: number }[]> {
  const family = isIP(host);
  if (family) return [{ address: host, family }];
  if (isLocalhost(host))
    return [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ];
  const resolver = resolverFor(policy);
  const answers = (lookup: Promise<string[]>, family: number) =>
    lookup.then(
      (addresses) => addresses.map((address) => ({ address, family })),
      () => [],
    );
  let timer: NodeJS.Timeout | undefined;
  // the resolver's timeout is per server tried: the whole resolution gets one bound
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UrlNotAllowed(hostRefusal(policy))), policy.timeoutMs);
  });
  try {
    const [v4, v6] = await Promise.race([
      Promise.all([answers(resolver.resolve4(host), 4), answers(resolver.resolve6(host), 6)]),
      deadline,
    ]);
    return [...v4, ...v6];
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves the URL's host and checks every address it resolves to; returns the address to connect to, so
 * that a DNS answer that changes between the check and the connection cannot reach a refused address.
 */
export async function resolveAllowed(
  url: URL,
  policy: UrlPolicy,
): Promise<{ address: string; family: 4 | 6 }> {
  const addresses = await addressesOf(hostOf(url), policy);
  if (addresses.length === 0) throw new UrlNotAllowed(hostRefusal(policy));
  if (!policy.allowPrivateNetworks && addresses.some((a) => !addressAllowed(a.address)))
    throw new UrlNotAllowed(hostRefusal(policy));
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
