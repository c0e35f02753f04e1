const pascal = (word: string): string =>
  word
    .split(/[-_.]/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ses')) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

const isParam = (segment: string) => segment.startsWith(':') || segment.startsWith('{');

/**
 * A camelCase operation id from method and URL, so generated clients get readable, stable
 * names without each route spelling one: `GET /monitors` listMonitors, `POST /monitors`
 * createMonitor, `GET /monitors/:id/checks` listMonitorChecks, `POST /monitors/:id/pause`
 * pauseMonitor, `POST /status-pages/preview` previewStatusPage.
 */
export function deriveOperationId(method: string, url: string): string {
  const segments = url
    .replace(/^\/api\/v1\//, '')
    .split('/')
    .filter(Boolean);
  const last = segments.at(-1) ?? '';
  // The nouns: each static segment, singular when an id or a further segment follows it.
  const nouns = segments.flatMap((s, i) => {
    if (isParam(s)) return [];
    const next = segments[i + 1];
    return [next !== undefined ? singular(s) : s];
  });
  const verb = method.toLowerCase();
  if (isParam(last)) {
    const noun = nouns.join('-');
    const verbs: Record<string, string> = { get: 'get', put: 'update', patch: 'update' };
    return `${verbs[verb] ?? (verb === 'delete' ? 'delete' : verb)}${pascal(noun)}`;
  }
  const owner = nouns.slice(0, -1).join('-');
  const previous = segments.at(-2);
  // POST /<things>/:id/<action> or POST /<things>/<action>: the action is the verb.
  if (verb === 'post' && previous !== undefined && nouns.length >= 2 && !/s$/.test(last))
    return `${last.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}${pascal(owner)}`;
  if (verb === 'get') return `${/s$/.test(last) ? 'list' : 'get'}${pascal(nouns.join('-'))}`;
  if (verb === 'post') return `create${pascal([owner, singular(last)].filter(Boolean).join('-'))}`;
  if (verb === 'put') return `update${pascal(nouns.join('-'))}`;
  if (verb === 'delete') return `delete${pascal(nouns.join('-'))}`;
  return `${verb}${pascal(nouns.join('-'))}`;
}
