import { BuiltInSuggestionProvider } from './built-in.provider';
import type { LlmSettings } from './llm-settings';
import { OpenAiSuggestionProvider } from './openai.provider';
import type { SuggestionProvider } from './suggestion-provider';

/**
 * A failure the migration stream hid from the client, as it may be logged: a category, and for
 * unexpected errors their type and stack frames, never a message (it may quote the form's content).
 */
export interface MigrationFailure {
  provider: string;
  reason: string;
  requestId: string;
  errorType?: string;
  frames?: string;
}

/** Where the migration stream reports the failures it hides from the client. */
export type MigrationFailureLog = (failure: MigrationFailure) => void;

let provider: SuggestionProvider = new BuiltInSuggestionProvider();
let failureLog: MigrationFailureLog = () => undefined;

/**
 * Picks this process's suggestion provider once at start: the OpenAI-compatible one when
 * LLM_BASE_URL is set, the built-in one otherwise (and until this is called). The gateway calls
 * it in all-in-one mode, the notes subgraph's main when it runs alone.
 */
export function configureSuggestions(options: { llm: LlmSettings | null; log?: MigrationFailureLog }): void {
  provider = options.llm ? new OpenAiSuggestionProvider(options.llm) : new BuiltInSuggestionProvider();
  failureLog = options.log ?? (() => undefined);
}

/** The provider chosen by `configureSuggestions`. */
export const suggestionProvider = (): SuggestionProvider => provider;

/** The failure log chosen by `configureSuggestions`. */
export const migrationFailureLog = (): MigrationFailureLog => failureLog;
