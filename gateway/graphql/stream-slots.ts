/**
 * Per-tenant counts of long-lived things (open subscriptions, WebSocket connections) in this
 * process, with a cap: one instance is shared by every transport that opens them, so a tenant
 * cannot go past the cap by mixing graphql-sse and graphql-ws.
 */
export class StreamSlots {
  private readonly held = new Map<string, number>();

  constructor(readonly max: number) {}

  /** Takes a slot of the tenant's; returns the function that gives it back (once), or null when the tenant holds `max` already. */
  take(tenantId: string): (() => void) | null {
    const count = this.held.get(tenantId) ?? 0;
    if (count >= this.max) return null;
    this.held.set(tenantId, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(tenantId) ?? 1) - 1;
      if (left > 0) this.held.set(tenantId, left);
      else this.held.delete(tenantId);
    };
  }

  /** How many slots the tenant holds now. */
  count(tenantId: string): number {
    return this.held.get(tenantId) ?? 0;
  }
}
