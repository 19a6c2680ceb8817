import { parseLegacyContent } from './legacy-content.parser';
import type { LegacyQuestion, QuestionSuggestion, SuggestionProvider } from './suggestion-provider';

/** The default provider: deterministic rules over the legacy wording, no network, no model (legacy-content.parser.ts). */
export class BuiltInSuggestionProvider implements SuggestionProvider {
  readonly name = 'built-in';

  async *suggest(question: LegacyQuestion, signal: AbortSignal): AsyncIterable<QuestionSuggestion> {
    for (const suggestion of parseLegacyContent(question.content)) {
      if (signal.aborted) return;
      yield suggestion;
    }
  }
}
