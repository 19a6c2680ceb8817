/** Who acts (docs/audit.md): an API key, a signed-in person, the operator (CLI, `/admin`), or the platform itself. */
export type ActorKind = 'key' | 'user' | 'operator' | 'system';

/** The actor of a request, by id (a key's or a user's id, never a secret). */
export interface Actor {
  kind: ActorKind;
  id: string | null;
}

/** The text form of an actor, as it travels between the gateway and a subgraph (`key:<id>`). */
export function actorText(actor: Actor): string {
  return actor.id ? `${actor.kind}:${actor.id}` : actor.kind;
}

const ACTOR_TEXT = /^(key|user|operator|system)(?::([A-Za-z0-9-]{1,64}))?$/;

/** Reads an actor's text form; null when it is not one. */
export function parseActor(text: unknown): Actor | null {
  const match = typeof text === 'string' ? ACTOR_TEXT.exec(text) : null;
  return match ? { kind: match[1] as ActorKind, id: match[2] ?? null } : null;
}
