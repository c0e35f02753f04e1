import { z } from 'zod';
import { ApiClient } from '../api-client.js';
import { connectionOf } from '../context.js';
import { VERSION } from '../../version.js';
import type { RegisterCommand } from './index.js';

const OpenApiInfo = z.object({ info: z.object({ title: z.string(), version: z.string() }) });

/** `pagewatch server-version`: is the server reachable with this key, and at which version. */
export const registerServerVersion: RegisterCommand = (program, contextOf) => {
  program
    .command('server-version')
    .description('check the URL and API key, and print the server version next to the CLI one')
    .action(async (_opts, cmd) => {
      const ctx = contextOf(cmd);
      const api = new ApiClient(connectionOf(ctx));
      // The API document is public; /monitors proves the key too (a viewer may read it).
      const doc = await api.call('/openapi.json', OpenApiInfo);
      await api.call('/monitors', z.unknown(), { query: { limit: 1 } });
      ctx.out(`server ${api.origin}: Pagewatch ${doc.info.version}\ncli: ${VERSION}\n`);
      if (doc.info.version !== VERSION)
        ctx.err('warning: the CLI and the server differ in version; files may not round-trip.\n');
    });
};
