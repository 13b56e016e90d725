/**
 * Whether a URL's hostname (as WHATWG URL gives it: IPv4 in dotted decimal, IPv6 in brackets, lower case) names this
 * machine: `localhost`, 127.0.0.0/8 or ::1. The one rule for "plain http is allowed here": what goes to this machine
 * never crosses a network, so a token, client secret or relay key sent in clear stays on it (issue 12: the platform URL
 * and the relay URL must be https:// anywhere else). Names that merely resolve to loopback (`*.localhost`, a hosts
 * file entry) do not count: the rule must not depend on a resolver.
 */
export function isLoopbackHostname(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(hostname);
  return octets !== null && octets.slice(1).every((o) => Number(o) <= 255);
}
