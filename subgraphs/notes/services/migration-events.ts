import { cancellableEvents } from '../../../platform/cancellable-events';
import { MAX_SUGGESTIONS, SuggestionError, type LegacyQuestion, type QuestionSuggestion, type SuggestionProvider } from '../providers/suggestion-provider';
import type { MigrationFailureLog } from '../notes-deps';
import { MigrationEventKind } from '../types/migration-event.type';

/** One event of the migration stream (contract part 4.9): suggestions, then `done`, or an `error` that ends it. */
export type MigrationEvent =
  | { type: MigrationEventKind.QUESTION; index: number; question: QuestionSuggestion }
  | { type: MigrationEventKind.DONE; count: number }
  | { type: MigrationEventKind.ERROR; message: string };

async function* generate(
  provider: SuggestionProvider,
  question: LegacyQuestion,
  signal: AbortSignal,
  fail: (reason: string, error?: unknown) => void,
): AsyncGenerator<MigrationEvent> {
  let count = 0;
  try {
    for await (const suggestion of provider.suggest(question, signal)) {
      if (signal.aborted) return;
      yield { type: MigrationEventKind.QUESTION, index: count++, question: suggestion };
      if (count >= MAX_SUGGESTIONS) break;
    }
    if (signal.aborted) return;
    yield { type: MigrationEventKind.DONE, count };
  } catch (error) {
    // A client that left caused the failure; nobody is listening for an error event.
    if (signal.aborted) return;
    const safe = error instanceof SuggestionError;
    fail(safe ? error.reason : 'unexpected', safe ? undefined : error);
    yield { type: MigrationEventKind.ERROR, message: safe ? error.message : 'Generating suggestions failed' };
  }
}

/** The abort reason of every stopped migration, the `AbortError` that `abort()` would build (with a stack) on every stream's end, made once. */
const CANCELLED = new DOMException('question migration cancelled', 'AbortError');

/**
 * The events of one migration, cancelled at once (platform/cancellable-events.ts): `return()`
 * aborts the provider first, where an async generator would only see it once its pending `await`
 * settled, and an abandoned stream would keep its model request open.
 */
export function migrationEvents(provider: SuggestionProvider, question: LegacyQuestion, log: MigrationFailureLog, requestId: string): AsyncIterableIterator<MigrationEvent> {
  const controller = new AbortController();
  const fail = (reason: string, error?: unknown) =>
    log({
      provider: provider.name,
      reason,
      requestId,
      ...(error instanceof Error ? { errorType: error.name, frames: error.stack?.split('\n').slice(1).join('\n') } : {}),
    });
  const events = generate(provider, question, controller.signal, fail);
  return cancellableEvents(
    () => events.next(),
    () => {
      controller.abort(CANCELLED);
      // The generator ends once the abort reaches its pending await; nobody waits for that.
      events.return(undefined).catch(() => undefined);
    },
  );
}
