/** Whose credentials changed: every session and API key belongs to one person. */
export interface Revocation {
  userId: number;
}

type Listener = (r: Revocation) => void;

/**
 * Rings when a session ended, an API key was revoked, or a person's role or access changed, so
 * long-lived requests (event streams) re-check their credentials at once rather than at their
 * next heartbeat. Services ring it after their write; the HTTP layer and caches listen.
 */
export class CredentialRevocations {
  private readonly listeners = new Set<Listener>();

  publish(r: Revocation): void {
    for (const l of this.listeners) l(r);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
