import { displayTimeZones } from '@pagewatch/contract';

/**
 * Cities people type that no IANA name carries, and the old names IANA replaced: each finds
 * the zone it lives in ("Mumbai" → Asia/Kolkata, "Kiev" → Europe/Kyiv).
 */
const cityAliases: Readonly<Record<string, readonly string[]>> = {
  'Asia/Kolkata': [
    'Mumbai',
    'Bombay',
    'Delhi',
    'New Delhi',
    'Bengaluru',
    'Bangalore',
    'Chennai',
    'Hyderabad',
    'Pune',
    'Calcutta',
    'India',
  ],
  'Europe/Kyiv': ['Kiev', 'Lviv', 'Odesa', 'Kharkiv', 'Ukraine'],
  'America/Los_Angeles': ['San Francisco', 'Seattle', 'San Diego', 'Pacific Time'],
  'America/New_York': ['Boston', 'Washington', 'Miami', 'Atlanta', 'Philadelphia', 'Eastern Time'],
  'America/Chicago': ['Dallas', 'Houston', 'Austin', 'Central Time'],
  'America/Denver': ['Salt Lake City', 'Mountain Time'],
  'America/Toronto': ['Montreal', 'Ottawa'],
  'America/Sao_Paulo': ['Rio de Janeiro', 'Brasilia'],
  'Europe/London': ['Manchester', 'Edinburgh', 'Birmingham', 'UK'],
  'Europe/Berlin': ['Munich', 'Frankfurt', 'Hamburg', 'Cologne', 'Germany'],
  'Europe/Paris': ['Lyon', 'Marseille', 'France'],
  'Europe/Madrid': ['Barcelona', 'Valencia', 'Spain'],
  'Europe/Rome': ['Milan', 'Naples', 'Italy'],
  'Europe/Zurich': ['Geneva', 'Basel', 'Switzerland'],
  'Europe/Moscow': ['Saint Petersburg', 'St Petersburg'],
  'Asia/Shanghai': ['Beijing', 'Shenzhen', 'Guangzhou', 'China'],
  'Asia/Tokyo': ['Osaka', 'Kyoto', 'Japan'],
  'Asia/Dubai': ['Abu Dhabi'],
  'Asia/Jerusalem': ['Tel Aviv'],
  'Asia/Ho_Chi_Minh': ['Saigon', 'Hanoi'],
  'Asia/Yangon': ['Rangoon'],
  'Asia/Kathmandu': ['Katmandu'],
  'Australia/Sydney': ['Canberra'],
  'Pacific/Auckland': ['Wellington'],
  'Africa/Lagos': ['Abuja'],
};

const fold = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replaceAll('_', ' ')
    .toLowerCase();

/** "Asia/Kolkata" → "Kolkata"; "America/Argentina/Buenos_Aires" → "Buenos Aires". */
export const cityOf = (zone: string): string =>
  (zone.split('/').at(-1) ?? zone).replaceAll('_', ' ');

/** Every zone to offer, under current IANA names, UTC first. */
export function offeredTimeZones(current?: string): string[] {
  const list = displayTimeZones(Intl.supportedValuesOf('timeZone'));
  return current && !list.includes(current) ? [current, ...list] : list;
}

export interface ZoneMatch {
  zone: string;
  /** The alias typed when it is not in the zone's name ("Mumbai"), to show beside it. */
  via: string | null;
}

/**
 * Zones for what was typed, best first: a city starting with it, then any word of the name or
 * an alias starting with it, then the text anywhere. Empty text: every zone.
 */
export function searchTimeZones(zones: readonly string[], text: string): ZoneMatch[] {
  const q = fold(text.trim());
  if (q === '') return zones.map((zone) => ({ zone, via: null }));
  const ranked: { match: ZoneMatch; rank: number }[] = [];
  for (const zone of zones) {
    const name = fold(zone);
    const city = fold(cityOf(zone));
    const alias = cityAliases[zone]?.find(
      (a) => fold(a).startsWith(q) || fold(a).includes(` ${q}`),
    );
    let rank = -1;
    if (city.startsWith(q)) rank = 0;
    else if (name.split(/[/ ]/).some((w) => w.startsWith(q))) rank = 1;
    else if (alias) rank = 1;
    else if (name.includes(q)) rank = 2;
    if (rank >= 0)
      ranked.push({
        match: { zone, via: rank === 1 && alias && !name.includes(q) ? alias : null },
        rank,
      });
  }
  return ranked.sort((a, b) => a.rank - b.rank).map((r) => r.match);
}

/** "UTC+05:30" for the zone now; empty when the runtime cannot tell. */
export function offsetLabel(zone: string, at = Date.now()): string {
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName');
    return part?.value.replace('GMT', 'UTC') || 'UTC';
  } catch {
    return '';
  }
}
