/**
 * The business's map, from what the owner gives: a link copied from Google
 * Maps (a share link, a place or search address, an embed address or the
 * whole embed code) or the address in words. From it come the address of
 * the embedded map (an iframe on www.google.com, the one origin the
 * Content Security Policy frames: server/csp.server.ts), the "Open in
 * Google Maps" link and, only when the link carries them, the coordinates
 * the JSON-LD states. Nothing is looked up: the site has no network when it
 * builds, so a share link (maps.app.goo.gl) is kept as the link, and the
 * map shows the address.
 *
 * The text is at most MAP_TEXT_MAX characters, read with URL parsing and
 * indexOf: no pattern that could backtrack.
 */

/** The longest link or address accepted (an embed code with its markup fits). */
export const MAP_TEXT_MAX = 2000;

const EMBED_PREFIX = 'https://www.google.com/maps';

export interface MapPlace {
  mapEmbedUrl: string;
  mapLinkUrl: string;
  geo?: { latitude: number; longitude: number };
}

export type MapPlaceResult = ({ ok: true } & MapPlace) | { ok: false; message: string };

const LABEL = 'Map';

export const MAP_MESSAGES = {
  tooLong: `${LABEL}: at most ${MAP_TEXT_MAX} characters; paste only the link`,
  oneLine: `${LABEL}: the address on one line`,
  notGoogle: `${LABEL}: paste a link from Google Maps (find the business, tap Share, then Copy link), or type the address`,
  notLink: `${LABEL}: this link cannot be read; copy it again from Google Maps, or type the address`,
  outside: `${LABEL}: this link points outside New Zealand; check it is the business’s place`,
} as const;

/** Google's hosts whose /maps addresses are maps. */
const GOOGLE_HOSTS: ReadonlySet<string> = new Set([
  'google.com',
  'www.google.com',
  'google.co.nz',
  'www.google.co.nz',
]);
const MAPS_HOSTS: ReadonlySet<string> = new Set(['maps.google.com', 'maps.google.co.nz']);
/** Share links: they only redirect, so they are kept as the link. */
const SHORT_HOSTS: ReadonlySet<string> = new Set(['maps.app.goo.gl', 'goo.gl']);

/** The full address, as the map searches for it. */
export function addressQuery(address: {
  street: string;
  suburb: string;
  city: string;
  postcode: string;
}): string {
  return `${address.street}, ${address.suburb}, ${address.city} ${address.postcode}`;
}

function byQuery(query: string): MapPlace {
  const q = encodeURIComponent(query);
  return {
    mapEmbedUrl: `${EMBED_PREFIX}?q=${q}&output=embed`,
    mapLinkUrl: `${EMBED_PREFIX}/search/?api=1&query=${q}`,
  };
}

function number(text: string): number | null {
  if (text === '' || text.length > 20) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** 'lat,lng' (each a plain decimal), or null. */
function coordinates(text: string): MapPlace['geo'] | null {
  const parts = text.split(',');
  if (parts.length < 2) return null;
  const latitude = number((parts[0] ?? '').trim());
  const longitude = number((parts[1] ?? '').trim());
  if (latitude === null || longitude === null) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return { latitude, longitude };
}

/** Within New Zealand's main islands and Stewart Island (the bounds the site used to ask for). */
function inNewZealand(geo: NonNullable<MapPlace['geo']>): boolean {
  return geo.latitude >= -48 && geo.latitude <= -34 && geo.longitude >= 166 && geo.longitude <= 179;
}

/** The number after `marker` up to the next '!' in an embed's pb parameter ('!3d-37.74…!'). */
function pbNumber(pb: string, marker: string): number | null {
  const at = pb.indexOf(marker);
  if (at < 0) return null;
  const start = at + marker.length;
  const end = pb.indexOf('!', start);
  return number(pb.slice(start, end < 0 ? undefined : end));
}

/** The src="…" of a pasted embed code, or the text as it is. */
function srcOf(text: string): string {
  if (!text.startsWith('<')) return text;
  const at = text.indexOf('src=');
  if (at < 0) return '';
  const quote = text.charAt(at + 4);
  if (quote !== '"' && quote !== "'") return '';
  const end = text.indexOf(quote, at + 5);
  return end < 0 ? '' : text.slice(at + 5, end).replaceAll('&amp;', '&');
}

/** What a Google Maps address says: coordinates, a place's name or a search, an embed's own address. */
function fromGoogle(url: URL, fallback: string): MapPlaceResult {
  const path = url.pathname;
  let geo: MapPlace['geo'] | null = null;
  let query: string | null = null;

  // An embed address (Share, Embed a map): framed as it is, from www.google.com.
  const pb = url.searchParams.get('pb');
  if (path.startsWith('/maps/embed') && pb) {
    const latitude = pbNumber(pb, '!3d');
    const longitude = pbNumber(pb, '!2d');
    geo = latitude !== null && longitude !== null ? { latitude, longitude } : null;
    if (geo && !inNewZealand(geo)) return { ok: false, message: MAP_MESSAGES.outside };
    const embed = `${EMBED_PREFIX}/embed?pb=${encodeURIComponent(pb)}`;
    const link = geo ? byQuery(`${geo.latitude},${geo.longitude}`) : byQuery(fallback);
    return { ok: true, mapEmbedUrl: embed, mapLinkUrl: link.mapLinkUrl, ...(geo ? { geo } : {}) };
  }

  // '/maps/place/Harbourside+Glass/@-37.7447,176.0921,17z/…'
  const at = path.indexOf('/@');
  if (at >= 0) geo = coordinates(path.slice(at + 2));
  const place = '/maps/place/';
  if (path.startsWith(place)) {
    const name = path.slice(place.length).split('/')[0] ?? '';
    try {
      query = decodeURIComponent(name.replaceAll('+', ' ')).trim() || null;
    } catch {
      query = null;
    }
  }
  // '?q=…', '?query=…' (search links), '?ll=lat,lng'.
  for (const key of ['q', 'query', 'll']) {
    const value = url.searchParams.get(key)?.trim();
    if (!value) continue;
    const said = coordinates(value);
    if (said) geo ??= said;
    else if (key !== 'll') query ??= value;
  }
  if (geo && !inNewZealand(geo)) return { ok: false, message: MAP_MESSAGES.outside };
  if (!geo && !query) return { ok: false, message: MAP_MESSAGES.notLink };
  const shown = byQuery(geo ? `${geo.latitude},${geo.longitude}` : (query ?? fallback));
  return {
    ok: true,
    mapEmbedUrl: shown.mapEmbedUrl,
    // The owner's own link opens the place as they chose it.
    mapLinkUrl: url.href,
    ...(geo ? { geo } : {}),
  };
}

/**
 * The map from the owner's text (`given`), or from `address` when there is
 * none; a sentence saying why when the text cannot be a map.
 */
export function mapPlace(given: string, address: string): MapPlaceResult {
  const text = given.trim();
  if (text.length > MAP_TEXT_MAX) return { ok: false, message: MAP_MESSAGES.tooLong };
  if (text === '') return { ok: true, ...byQuery(address) };
  const source = srcOf(text);
  const lower = source.toLowerCase();
  const looksLikeLink =
    lower.startsWith('http://') ||
    lower.startsWith('https://') ||
    lower.startsWith('www.') ||
    lower.startsWith('maps.') ||
    lower.startsWith('goo.gl/') ||
    text.startsWith('<');
  if (!looksLikeLink) {
    for (const char of text) {
      if (char < ' ' || char === '\u2028' || char === '\u2029' || char === '\u007f') {
        return { ok: false, message: MAP_MESSAGES.oneLine };
      }
    }
    if (text.length > 200) return { ok: false, message: MAP_MESSAGES.notGoogle };
    return { ok: true, ...byQuery(text) };
  }
  let url: URL;
  try {
    url = new URL(lower.startsWith('http') ? source : `https://${source}`);
  } catch {
    return { ok: false, message: MAP_MESSAGES.notLink };
  }
  const host = url.hostname.toLowerCase();
  if (SHORT_HOSTS.has(host) && (host !== 'goo.gl' || url.pathname.startsWith('/maps'))) {
    url.protocol = 'https:';
    return { ok: true, mapEmbedUrl: byQuery(address).mapEmbedUrl, mapLinkUrl: url.href };
  }
  if (MAPS_HOSTS.has(host) || (GOOGLE_HOSTS.has(host) && url.pathname.startsWith('/maps'))) {
    url.protocol = 'https:';
    return fromGoogle(url, address);
  }
  return { ok: false, message: MAP_MESSAGES.notGoogle };
}
