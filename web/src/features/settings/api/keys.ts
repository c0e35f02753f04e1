/** Query keys of the settings screens; all of them belong to the signed-in person. */
export const settingsKeys = {
  users: () => ['users'] as const,
  apiKeys: () => ['api-keys'] as const,
  auditAll: () => ['audit'] as const,
  audit: (filters: object) => ['audit', filters] as const,
  cluster: () => ['cluster'] as const,
  settings: () => ['settings'] as const,
  storage: () => ['settings', 'storage'] as const,
};
