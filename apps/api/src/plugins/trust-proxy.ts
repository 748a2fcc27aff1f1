// Which X-Forwarded-For entries Fastify believes (TRUST_PROXY; docs/decisions/030-proxies-and-sign-in-links.md).
// The client address (request.ip) is the first address, walking from the socket leftwards through
// X-Forwarded-For, that is not a trusted proxy; whatever a client wrote further left is never read.
import type { Env } from '../env';
import { isInternalAddress } from './metrics';

/** A proxy-addr trust function: the address of a hop and its number, 0 being the socket's peer. */
export type TrustProxyFunction = (address: string, hop: number) => boolean;

/**
 * Fastify's trustProxy for the setting: off, the listed addresses and ranges as they are, or a hop
 * count. Fastify itself refuses hop counts (from 5.x a number trusts nothing): counted alone, a client
 * that reaches the app directly could write as many entries as there are hops. Here a counted hop
 * must also be on the internal network (loopback, private, link-local, unique-local), where load
 * balancers and sidecar proxies live; a proxy with a public address (a CDN) is listed instead.
 */
export function trustProxyOption(setting: Env['TRUST_PROXY']): false | string[] | TrustProxyFunction {
  if (typeof setting !== 'number') return setting;
  const hops = setting;
  return (address, hop) => hop < hops && isInternalAddress(address);
}
