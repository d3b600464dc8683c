import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** `10.0.0.0/8, 192.168.1.7, ::1/128` (comma-separated addresses or CIDR ranges). */
export function networkList(text: string): BlockList {
  const list = new BlockList();
  for (const entry of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [address = '', prefix] = entry.split('/');
    const type = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
    if (!type) throw new Error(`not an IP address or CIDR range: ${entry}`);
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

export function fromNetwork(list: BlockList, ip: string): boolean {
  // A dual-stack socket reports IPv4 clients as ::ffff:a.b.c.d.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped) return list.check(mapped, 'ipv4');
  return isIPv4(ip) ? list.check(ip, 'ipv4') : isIPv6(ip) && list.check(ip, 'ipv6');
}
