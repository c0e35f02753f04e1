/** Query keys of the maintenance screen. */
export const maintenanceKeys = {
  all: ['maintenance'] as const,
  list: () => ['maintenance', 'list'] as const,
  detail: (id: number) => ['maintenance', 'detail', id] as const,
  preview: (input: unknown) => ['maintenance', 'preview', input] as const,
};
