import type { StatusPageInput } from '@pagewatch/contract';
import type { z } from 'zod';
import { validationFailed } from '../lib/errors.js';
import type { PageSource, ReadDeps } from './load.js';

type Draft = z.output<typeof StatusPageInput>;

/** A page the editor has not saved, read like a stored one; every monitor must exist. */
export async function draftSource(deps: ReadDeps, input: Draft): Promise<PageSource> {
  const ids = input.sections.flatMap((s) => s.components.map((c) => c.monitorId));
  const states = await deps.repos.statusPublic.monitorStates(ids);
  const missing = input.sections.flatMap((s, si) =>
    s.components.flatMap((c, ci) =>
      states.has(c.monitorId)
        ? []
        : [
            {
              path: `sections.${si}.components.${ci}.monitorId`,
              message: 'No monitor has this id',
              code: 'not_found',
            },
          ],
    ),
  );
  if (missing.length > 0) throw validationFailed(missing);
  return {
    page: {
      id: 0,
      slug: input.slug,
      title: input.title,
      description: input.description,
      customDomain: input.customDomain,
      show: input.show,
      theme: input.theme,
      subscribable: input.subscriptions.email || input.subscriptions.webhook,
      footer: input.footer,
      published: input.published,
      timeZone: input.timeZone,
      logoHash: null,
      updatedAt: deps.clock.now(),
    },
    sections: input.sections.map((s) => ({
      title: s.title,
      components: s.components.flatMap((c) => {
        const state = states.get(c.monitorId);
        return state
          ? [
              {
                ...state,
                displayName: c.displayName,
                description: c.description,
                showLocations: c.showLocations,
              },
            ]
          : [];
      }),
    })),
  };
}
