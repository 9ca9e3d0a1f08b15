import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Where a webhook may be sent: what registration checks, and what delivery checks again. */
export interface UrlPolicy {
  allowHttp: boolean;
  allowPrivateNetworks: boolean;
}

/** An endpoint URL or address the policy refuses; the message says why, for the 422 and the attempt log. */
export class UrlNotAllowed extends Error {}

/**
 * ipaddr.js's ranges that are not the public internet: loopback, RFC 1918 and unique-local, link-local,
 * CGNAT (100.64/10), multicast, unspecified, broadcast, and the reserved and documentation blocks. An
 * IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
const PUBLIC_RANGES = new Set(['unicast', 'global']);

export function addressAllowed(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return PUBLIC_RANGES.has(parsed.range());
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
 * Resolves the URL's host and checks every address it resolves to; returns the address to connect to, so
 * that a DNS answer that changes between the check and the connection cannot reach a refused address.
 */
export async function resolveAllowed(
  url: URL,
  policy: UrlPolicy,
): Promise<{ address: string; family: 4 | 6 }> {
  const host = hostOf(url);
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new UrlNotAllowed(`The host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new UrlNotAllowed(`The host ${host} does not resolve`);
  if (!policy.allowPrivateNetworks) {
    const refused = addresses.find((a) => !addressAllowed(a.address));
    if (refused) {
      throw new UrlNotAllowed(
        `The host ${host} resolves to ${refused.address}, a private, loopback, link-local or reserved address (WEBHOOK_ALLOW_PRIVATE_NETWORKS is off)`,
      );
    }
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
