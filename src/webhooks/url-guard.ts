/**
 * The guard against server-side request forgery. A webhook URL is the user's, but the
 * request comes from inside our network: it must never reach loopback, private,
 * link-local (cloud metadata at 169.254.169.254), carrier-grade NAT (Alibaba's metadata),
 * unique-local (AWS's fd00:ec2::254) or any other special-purpose address. Only ipaddr.js'
 * `unicast` range passes — every range it names otherwise is refused, so a range it adds
 * later is refused too. The check runs when the endpoint is registered and again on
 * every delivery, against every address the name resolves to then; the delivery connects
 * to the address that was checked (deliver.ts pins it), so a name that resolves to a
 * public address for the check and a private one for the connection (DNS rebinding)
 * gets nowhere. `allowPrivate` (WEBHOOK_ALLOW_PRIVATE) lifts all of this, and https-only,
 * for tests and private networks.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why a URL or an address was refused, in words a user can act on. */
export class UrlRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UrlRefused';
  }
}

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

export const MAX_URL_CHARS = 2_000;

/** The URL's own checks, before any name is resolved: well-formed, https, no credentials, no special address literal. */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): URL {
  if (raw.length > MAX_URL_CHARS) throw new UrlRefused(`url must be at most ${MAX_URL_CHARS} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefused('url is not a valid absolute URL');
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    throw new UrlRefused(allowPrivate ? 'url must be http or https' : 'url must use https');
  }
  if (url.username !== '' || url.password !== '') throw new UrlRefused('url must not carry a user name or password');
  if (url.hash !== '') throw new UrlRefused('url must not have a #fragment');
  const literal = addressLiteral(url.hostname);
  if (literal !== undefined && !allowPrivate) assertPublic(literal);
  if (literal === undefined && !allowPrivate && isLocalName(url.hostname)) {
    throw new UrlRefused('url must not name a local host');
  }
  return url;
}

/**
 * The address a delivery connects to: every address `hostname` resolves to must be
 * public (a name with one private address among public ones is refused: which one a
 * client picks is not ours to know); the first is returned, to be pinned.
 */
export async function resolvePublicAddress(hostname: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<ResolvedAddress> {
  const literal = addressLiteral(hostname);
  if (literal !== undefined) {
    if (!allowPrivate) assertPublic(literal);
    return { address: literal, family: isIP(literal) === 6 ? 6 : 4 };
  }
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await resolve(hostname);
  } catch {
    throw new UrlRefused(`the host name ${quote(hostname)} does not resolve`);
  }
  if (addresses.length === 0) throw new UrlRefused(`the host name ${quote(hostname)} does not resolve`);
  if (!allowPrivate) for (const { address } of addresses) assertPublic(address, hostname);
  return addresses[0]!;
}

function assertPublic(address: string, viaName?: string): void {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range !== 'unicast') {
    const where = viaName === undefined ? `the address ${address}` : `${quote(viaName)} resolves to ${address}, which`;
    throw new UrlRefused(`${where} is not a public address (${range}); webhooks are sent only to public addresses`);
  }
}

/** The IP address a URL's hostname spells (IPv6 without its brackets), or undefined for a name. */
function addressLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? undefined : bare;
}

/** Names that mean this machine or its network whatever DNS says. */
function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name.endsWith('.local') || name.endsWith('.internal') || !name.includes('.');
}

function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text);
}
