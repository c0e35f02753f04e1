/** Query keys of the status page screens. */
export const statusPageKeys = {
  all: ['status-pages'] as const,
  list: () => ['status-pages', 'list'] as const,
  detail: (id: number) => ['status-pages', 'detail', id] as const,
};
