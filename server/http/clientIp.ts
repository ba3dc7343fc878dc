import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import { env } from '../env';

/**
 * The caller's address, normalised (IPv4-mapped IPv6 → IPv4). Behind a trusted proxy (TRUST_PROXY) it is the last
 * X-Forwarded-For entry: the one our proxy appended, which a client cannot forge.
 */
export function clientIp(req: IncomingMessage): string {
  let raw = req.socket?.remoteAddress ?? '';
  if (env().TRUST_PROXY) {
    const header = req.headers['x-forwarded-for'];
    const forwarded = (Array.isArray(header) ? header.join(',') : header ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    const last = forwarded[forwarded.length - 1];
    if (last && ipaddr.isValid(last)) raw = last;
  }
  return ipaddr.isValid(raw) ? ipaddr.process(raw).toString() : 'unknown';
}
