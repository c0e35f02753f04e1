/**
 * Rings when this process committed deliveries to the outbox, so the notifier sends them now
 * instead of at its next poll (which remains for rows other processes wrote).
 */
export class OutboxSignal {
  private readonly listeners = new Set<() => void>();

  notify(): void {
    for (const l of this.listeners) l();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
