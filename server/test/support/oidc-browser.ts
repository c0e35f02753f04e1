/**
 * A cookie-keeping HTTP client that follows redirects one by one, as a browser does, across
 * Pagewatch and the test provider; a hook may rewrite any hop (tampering tests).
 */
export class RedirectWalker {
  private readonly jar = new Map<string, Map<string, string>>();

  cookieHeader(url: URL): string {
    const cookies = this.jar.get(url.host);
    return cookies ? [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }

  cookie(url: string, name: string): string | undefined {
    return this.jar.get(new URL(url).host)?.get(name);
  }

  private store(url: URL, res: Response): void {
    const cookies = this.jar.get(url.host) ?? new Map<string, string>();
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const expired = attrs.some(
        (a) => /^\s*max-age=0/i.test(a) || /expires=Thu, 01 Jan 1970/i.test(a),
      );
      if (value === '' || expired) cookies.delete(name);
      else cookies.set(name, value);
    }
    this.jar.set(url.host, cookies);
  }

  async request(url: URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(url);
    if (cookie) headers.set('cookie', cookie);
    const res = await fetch(url, {
      ...init,
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    this.store(url, res);
    return res;
  }

  /**
   * Follows redirects from `start` until `stop` says a location is the end (or a page answers).
   * Answers the last location and the last response.
   */
  async walk(
    start: string,
    options: { stop: (location: URL) => boolean; rewrite?: (location: URL) => URL },
  ): Promise<{ location: URL; res: Response }> {
    let url = new URL(start);
    for (let hop = 0; hop < 20; hop++) {
      const res = await this.request(url);
      const next = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !next) return { location: url, res };
      await res.arrayBuffer();
      let location = new URL(next, url);
      if (options.rewrite) location = options.rewrite(location);
      if (options.stop(location)) return { location, res };
      url = location;
    }
    throw new Error('Too many redirects');
  }
}
