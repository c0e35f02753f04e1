import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/**
 * IANA's RDAP bootstrap file for DNS (RFC 9224, `dns.json`): which RDAP services answer for
 * which TLDs. A copy ships with Pagewatch (server/assets/rdap-dns.json); `pagewatch
 * rdap-bootstrap refresh` writes a fresh one into the data directory, which wins when present.
 */

/** The shipped file: beside src/ and dist/ alike (server/assets). */
export const SHIPPED_BOOTSTRAP = fileURLToPath(
  new URL('../../../../assets/rdap-dns.json', import.meta.url),
);

/** The refreshed copy's name inside PAGEWATCH_DATA_DIR. */
export const REFRESHED_NAME = 'rdap-dns.json';
/** Beside it: where and when it was downloaded ({ from, at }). */
export const SOURCE_NAME = 'rdap-dns.source.json';

export interface RdapBootstrap {
  publication: string | null;
  /** TLD (lower case, A-label) → RDAP base URLs, each ending in `/`. */
  services: Map<string, string[]>;
}

export class BootstrapError extends Error {}

/** Reads a bootstrap file's JSON text; throws BootstrapError with what is wrong. */
export function parseBootstrap(text: string): RdapBootstrap {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BootstrapError('The bootstrap file is not JSON');
  }
  const doc = json as { services?: unknown; publication?: unknown };
  if (!Array.isArray(doc.services)) throw new BootstrapError('The bootstrap file has no services');
  const services = new Map<string, string[]>();
  for (const service of doc.services) {
    if (!Array.isArray(service) || !Array.isArray(service[0]) || !Array.isArray(service[1])) {
      throw new BootstrapError('A service of the bootstrap file is not [[tlds], [urls]]');
    }
    // RFC 9224 §3: base URLs may lack the trailing slash; https is preferred over http.
    const urls = (service[1] as unknown[])
      .filter((u): u is string => typeof u === 'string' && /^https?:\/\//.test(u))
      .map((u) => (u.endsWith('/') ? u : `${u}/`))
      .sort((a, b) => Number(b.startsWith('https:')) - Number(a.startsWith('https:')));
    for (const tld of service[0] as unknown[]) {
      if (typeof tld === 'string' && urls.length > 0) services.set(tld.toLowerCase(), urls);
    }
  }
  if (services.size === 0) throw new BootstrapError('The bootstrap file names no RDAP service');
  return {
    publication: typeof doc.publication === 'string' ? doc.publication : null,
    services,
  };
}

export function loadBootstrapFile(file: string): RdapBootstrap {
  return parseBootstrap(readFileSync(file, 'utf8'));
}

/** The refreshed copy in the data directory when there is one, else the shipped file. */
export function bootstrapFileFor(dataDir: string | null): string {
  if (dataDir !== null) {
    const refreshed = path.join(dataDir, REFRESHED_NAME);
    if (existsSync(refreshed)) return refreshed;
  }
  return SHIPPED_BOOTSTRAP;
}

/**
 * The RDAP services of the TLD that a registered domain belongs to. Bootstrap entries are
 * TLDs (RFC 9224 allows longer labels; the longest match wins).
 */
export function servicesFor(bootstrap: RdapBootstrap, domain: string): string[] {
  const labels = domain.toLowerCase().split('.');
  for (let i = 1; i < labels.length; i++) {
    const found = bootstrap.services.get(labels.slice(i).join('.'));
    if (found) return found;
  }
  return [];
}

/** The bootstrap file in use, as Settings shows it. */
export interface BootstrapInUse {
  source: 'shipped' | 'refreshed';
  publication: string | null;
  tlds: number;
  refreshedAt: string | null;
  refreshedFrom: string | null;
}

/** Reads the file in use and, for a refreshed one, where and when it came from. */
export function bootstrapInUse(dataDir: string | null): BootstrapInUse {
  const file = bootstrapFileFor(dataDir);
  const bootstrap = loadBootstrapFile(file);
  const publication = bootstrap.publication ? Date.parse(bootstrap.publication) : NaN;
  const common = {
    publication: Number.isNaN(publication) ? null : new Date(publication).toISOString(),
    tlds: bootstrap.services.size,
  };
  if (file === SHIPPED_BOOTSTRAP || dataDir === null) {
    return { source: 'shipped', ...common, refreshedAt: null, refreshedFrom: null };
  }
  let from: string | null = null;
  let at = statSync(file).mtime.toISOString();
  try {
    const recorded = JSON.parse(readFileSync(path.join(dataDir, SOURCE_NAME), 'utf8')) as {
      from?: unknown;
      at?: unknown;
    };
    if (typeof recorded.from === 'string') from = recorded.from;
    if (typeof recorded.at === 'string') at = recorded.at;
  } catch {
    // Written by an older CLI, or by hand: the file's own time, no source.
  }
  return { source: 'refreshed', ...common, refreshedAt: at, refreshedFrom: from };
}

/**
 * Writes a checked bootstrap file into the data directory with where it came from. Each is
 * written beside and renamed, so a process reading meanwhile reads a whole file.
 */
export function writeRefreshedBootstrap(dataDir: string, text: string, from: string, at: Date) {
  const write = (name: string, content: string) => {
    const target = path.join(dataDir, name);
    writeFileSync(`${target}.tmp`, content);
    renameSync(`${target}.tmp`, target);
  };
  write(REFRESHED_NAME, text);
  write(SOURCE_NAME, JSON.stringify({ from, at: at.toISOString() }));
}
