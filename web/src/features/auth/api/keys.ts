/** Query keys of the signed-in person; everything else is per person and dropped on sign-out. */
export const authKeys = {
  all: ['auth'] as const,
  status: () => ['auth', 'status'] as const,
  me: () => ['auth', 'me'] as const,
};

/** True for queries that survive a change of person (sign-in status, the session itself). */
export const isAuthKey = (key: readonly unknown[]): boolean => key[0] === authKeys.all[0];
