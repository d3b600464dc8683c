import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network a client address belongs to for throttling: its /24 for IPv4, its /64 for IPv6
 * (what one household, office or cloud host usually gets). An attacker who rotates addresses
 * inside their allocation still lands in one bucket.
 */
export function subnetOf(ip: string): string {
  // A dual-stack socket reports IPv4 clients as ::ffff:a.b.c.d.
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1] ?? ip;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIPv6(ip)) return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
  return ip;
}

/** The eight groups of an IPv6 address, without a zone. */
function expandIPv6(ip: string): string[] {
  const [head = '', tail] = ip.split('%')[0]!.toLowerCase().split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const missing = 8 - left.length - right.length;
  return [...left, ...Array<string>(Math.max(missing, 0)).fill('0'), ...right].map(
    (group) => group.replace(/^0+(?=.)/, '') || '0',
  );
}
