import type { Logger } from 'pino';
import type { SubgraphContext } from '../../platform/context';
import { BuiltInSuggestionProvider } from './providers/built-in.provider';
import type { LlmSettings } from './providers/llm-settings';
import type { SuggestionProvider } from './providers/suggestion-provider';

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

/** The resolver context of the notes subgraph. */
export type NotesContext = SubgraphContext<NotesDeps>;

/** The notes subgraph's collaborators, built once per running subgraph (SubgraphDefinition.configure). */
export interface NotesDeps {
  /** Suggests structured questions for a legacy text-area question. */
  suggestions: SuggestionProvider;
  /** Where hidden migration failures are reported. */
  failureLog: MigrationFailureLog;
}

/**
 * Picks the suggestion provider from the subgraph's settings: the OpenAI-compatible one when
 * LLM_BASE_URL is set, the built-in one otherwise. Failures the stream hides from the client are
 * logged as warnings, without their messages (MigrationFailure).
 */
export function configureNotes(llm: LlmSettings | null, log: Logger): NotesDeps {
  return {
    suggestions: llm ? openAiProvider(llm) : new BuiltInSuggestionProvider(),
    failureLog: (failure) => log.warn(failure, 'question migration failed'),
  };
}

/** The OpenAI-compatible provider, its module (and the openai client, ~1 MiB of heap) loaded only when a language model is configured. */
function openAiProvider(llm: LlmSettings): SuggestionProvider {
  const { OpenAiSuggestionProvider } = require('./providers/openai.provider') as typeof import('./providers/openai.provider');
  return new OpenAiSuggestionProvider(llm);
}
