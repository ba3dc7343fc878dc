/**
 * SSRF guard for user-supplied webhook URLs, enforced where it cannot be fooled: at connect time.
 *
 * Checking a URL's host name when it is saved is not enough — DNS can answer differently at send time (rebinding), and
 * a literal IP in the URL never goes through DNS at all. So every outgoing webhook connection goes through an undici
 * Agent whose connector
 *   1. refuses literal-IP hosts that are not public unicast addresses (they bypass `lookup`);
 *   2. resolves names through a guarded `lookup` that refuses the connection when ANY address is not public unicast
 *      (a mixed answer is a rebinding attempt, not a reason to pick the good one);
 *   3. re-checks the socket's remote address once connected (belt and braces).
 * "Public" is ipaddr.js's `unicast` range after converting IPv4-mapped IPv6: loopback, private (10/8, 172.16/12,
 * 192.168/16), link-local (169.254/16 incl. the 169.254.169.254 metadata service), CGNAT (100.64/10), 0.0.0.0/8,
 * broadcast, multicast, reserved, ::, ::1, fc00::/7, fe80::/10, 6to4/Teredo tunnels … are all refused.
 *
 * `allowPrivate` (ALLOW_PRIVATE_WEBHOOKS=1, tests only) lifts the address check so loopback receivers work; nothing
 * else about the production path changes.
 */
import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector } from 'undici';

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Resolves a host name to all its addresses. Injectable so tests can make a name resolve to a private address. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export class BlockedAddressError extends Error {
  readonly code = 'ERR_BLOCKED_ADDRESS';
}

export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  // process() turns ::ffff:127.0.0.1 into 127.0.0.1 so mapped addresses get the IPv4 verdict.
  return ipaddr.process(ip).range() === 'unicast';
}

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function blocked(host: string, address: string): BlockedAddressError {
  return new BlockedAddressError(
    `${host} points to ${address}, a private, loopback or reserved address; webhooks may only go to public internet addresses.`,
  );
}

export function guardedLookup(resolve: Resolver, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (all) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const answers = family ? all.filter((a) => a.family === family) : all;
        if (answers.length === 0) {
          const err = Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
          callback(err, '', 0);
          return;
        }
        const bad = allowPrivate ? undefined : answers.find((a) => !isPublicAddress(a.address));
        if (bad) {
          callback(blocked(hostname, bad.address), '', 0);
          return;
        }
        if (options.all) callback(null, answers);
        else callback(null, answers[0].address, answers[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

export type GuardOptions = { allowPrivate: boolean; resolve?: Resolver; connectTimeoutMs?: number; requestTimeoutMs?: number };

/** An undici dispatcher that only ever connects to public addresses (unless allowPrivate). */
export function createGuardedAgent(opts: GuardOptions): Agent {
  const lookup = guardedLookup(opts.resolve ?? systemResolver, opts.allowPrivate);
  const base = buildConnector({ timeout: opts.connectTimeoutMs ?? 10_000, lookup });
  const connect: buildConnector.connector = (target, callback) => {
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!opts.allowPrivate && net.isIP(host) && !isPublicAddress(host)) {
      callback(blocked(host, host), null);
      return;
    }
    base(target, (err, socket) => {
      if (err || !socket) {
        callback(err ?? new Error('connection failed'), null);
        return;
      }
      const remote = socket.remoteAddress;
      if (!opts.allowPrivate && remote && !isPublicAddress(remote)) {
        socket.destroy();
        callback(blocked(host, remote), null);
        return;
      }
      callback(null, socket);
    });
  };
  const timeout = opts.requestTimeoutMs ?? 10_000;
  // Reuse connections: a delivery is one small POST, and a TLS handshake per message would cost more than the post.
  // undici subtracts keepAliveTimeoutThreshold (2 s by default) from the server's keep-alive hint; servers that hint a
  // short timeout would then get a new connection per message, so keep a smaller safety margin.
  return new Agent({ connect, headersTimeout: timeout, bodyTimeout: timeout, keepAliveTimeout: 10_000, keepAliveTimeoutThreshold: 500 });
}
