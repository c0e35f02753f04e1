import { configDocumentVersion, type ConfigDocument, type ImportItem } from '@pagewatch/contract';
import { mapAlerting } from './alerting.js';
import { mapEndpoints } from './endpoints.js';
import { mapExternal } from './external.js';
import { GatusKeys } from './keys.js';
import { readGatus } from './read.js';

export {
  firstEnvReference,
  gatusProblem,
  mergeGatusFiles,
  parseYaml,
  substituteEnv,
} from './read.js';

/** What a Gatus import would write, before it is applied. */
export interface GatusImportPlan {
  origin: string;
  document: ConfigDocument;
  /** One per endpoint, external endpoint and alerting provider, in the file's order. */
  items: ImportItem[];
  /** Monitor key → the Gatus token its push monitor keeps. */
  pushTokens: Map<string, string>;
}

/** Maps a Gatus configuration's text (env already substituted) into a document (pure). */
export function mapGatus(text: string): GatusImportPlan {
  const config = readGatus(text);
  const channels = mapAlerting(config.alerting);
  const keys = new GatusKeys();
  const endpoints = mapEndpoints(config.endpoints, keys, channels);
  const external = mapExternal(config.externalEndpoints, keys, channels);
  const n = config.endpoints.length + config.externalEndpoints.length;
  return {
    origin: `Gatus configuration (${n} endpoint${n === 1 ? '' : 's'})`,
    document: {
      version: configDocumentVersion,
      channels: channels.entries,
      monitors: [...endpoints.entries, ...external.entries],
      statusPages: [],
      maintenance: [],
      slos: [],
    },
    items: [...endpoints.items, ...external.items, ...channels.items],
    pushTokens: external.pushTokens,
  };
}
