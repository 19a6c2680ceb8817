import type { QuestionKind } from '../types/question-kind';

/** A structured question proposed to replace a legacy one: the `question` event's payload (contract part 4.9). */
export interface QuestionSuggestion {
  kind: QuestionKind;
  label: string;
  helpText: string | null;
  options: string[];
  required: boolean;
}

/** The legacy text-area question a provider reads. */
export interface LegacyQuestion {
  label: string;
  helpText: string | null;
  /** The legacy form's wording; may name a patient's conditions, so it is never logged. */
  content: string;
}

/**
 * Proposes structured questions for a legacy one, each as soon as it is known. Iteration stops
 * early, and any request in flight is cancelled, once `signal` aborts (the client went away).
 */
export interface SuggestionProvider {
  /** For logs: which provider answered. */
  readonly name: string;
  suggest(question: LegacyQuestion, signal: AbortSignal): AsyncIterable<QuestionSuggestion>;
}

/** A failure whose message is safe to show the client (no content, no secrets); it becomes the `error` event. */
export class SuggestionError extends Error {
  constructor(
    message: string,
    /** What the log may say about it: a category, never the model's output or the content. */
    readonly reason: string,
  ) {
    super(message);
  }
}

/** Most suggestions one stream sends; a form implying more is cut there, not streamed forever. */
export const MAX_SUGGESTIONS = 100;
