import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { QUESTION_KINDS, QuestionKind } from '../types/question-kind';
import type { LlmSettings } from './llm-settings';
import { LineSplitter, parseSuggestionLine } from './suggestion-lines';
import { MAX_SUGGESTIONS, SuggestionError, type LegacyQuestion, type QuestionSuggestion, type SuggestionProvider } from './suggestion-provider';

const KINDS = QUESTION_KINDS.filter((k) => k !== QuestionKind.TEXT_AREA).join(', ');

// JSON Lines lets each suggestion be used as soon as its line is complete, unlike one JSON array.
const SYSTEM_PROMPT = `You turn one free-text question of a legacy clinical intake form into the structured form questions it implies.
Answer in JSON Lines: one JSON object per line, one line per question, in the order of the original, and nothing else (no prose, no code fences).
Each object has exactly these keys: "kind" (one of: ${KINDS}), "label" (the question, short), "helpText" (string or null), "options" (array of strings: the answers to pick from for single_choice and multiple_choice, at least two; [] for other kinds), "required" (boolean).
Use yes_no for yes/no items, scale for 0-10 or 1-10 ratings, date for dates, multiple_choice for checkbox lists, single_choice for "a / b / c" lists. Do not invent questions the text does not imply.`;

function messages(question: LegacyQuestion): ChatCompletionMessageParam[] {
  const parts = [`Question label: ${question.label}`];
  if (question.helpText) parts.push(`Help text: ${question.helpText}`);
  parts.push('Original wording:', question.content);
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: parts.join('\n') },
  ];
}

const timedOut = () => new SuggestionError('The language model did not answer in time', 'timeout');

/** Turns the client library's failures into messages safe for clients; the status is all that is said about the service. */
function explain(error: unknown): unknown {
  if (error instanceof SuggestionError) return error;
  if (error instanceof APIConnectionTimeoutError) return timedOut();
  if (error instanceof APIConnectionError) return new SuggestionError('The language model service could not be reached', 'unreachable');
  if (error instanceof APIError) return new SuggestionError(`The language model service answered ${error.status ?? 'with an error'}`, `status ${error.status}`);
  if (error instanceof SyntaxError) return new SuggestionError('The language model service sent a malformed stream', 'malformed stream');
  return error;
}

/**
 * Asks an OpenAI-compatible chat completions endpoint (LLM_BASE_URL) with streaming, and yields
 * each suggestion as soon as its line arrives. A silence longer than the timeout, before the
 * answer starts or between chunks, ends the stream with an error; an abort cancels the request.
 */
export class OpenAiSuggestionProvider implements SuggestionProvider {
  readonly name = 'openai-compatible';
  private readonly client: OpenAI;

  constructor(private readonly settings: LlmSettings) {
    this.client = new OpenAI({
      baseURL: settings.baseUrl,
      apiKey: settings.apiKey ?? 'none',
      timeout: settings.timeoutMs,
      // A retry would double the wait of a person watching the stream.
      maxRetries: 0,
      // The library logs unparsable stream lines verbatim: model output may echo patient content.
      logLevel: 'off',
    });
  }

  async *suggest(question: LegacyQuestion, signal: AbortSignal): AsyncIterable<QuestionSuggestion> {
    const request = new AbortController();
    const cancel = () => request.abort();
    signal.addEventListener('abort', cancel, { once: true });
    let expired = false;
    let timer: NodeJS.Timeout | undefined;
    const wait = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        expired = true;
        request.abort();
      }, this.settings.timeoutMs);
    };
    try {
      wait();
      const stream = await this.client.chat.completions
        .create({ model: this.settings.model, stream: true, temperature: 0, messages: messages(question) }, { signal: request.signal })
        .catch((error) => {
          if (error instanceof APIUserAbortError) return null;
          throw explain(error);
        });
      if (!stream) {
        if (expired) throw timedOut();
        return;
      }
      const lines = new LineSplitter();
      let sent = 0;
      const iterator = stream[Symbol.asyncIterator]();
      for (;;) {
        const chunk = await iterator.next().catch((error) => {
          throw explain(error);
        });
        // The library ends an aborted stream quietly, so silence and cancellation are told apart here.
        if (expired) throw timedOut();
        if (signal.aborted) return;
        const finished = chunk.done === true;
        const text = finished ? '' : (chunk.value.choices?.[0]?.delta?.content ?? '');
        clearTimeout(timer);
        for (const line of finished ? [...lines.push(''), ...lines.end()] : lines.push(text)) {
          const suggestion = parseSuggestionLine(line);
          if (!suggestion) continue;
          yield suggestion;
          if (signal.aborted || ++sent >= MAX_SUGGESTIONS) return;
        }
        if (finished) return;
        wait();
      }
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', cancel);
      // Stops the response body when iteration ended early (cap reached, bad line, consumer gone).
      request.abort();
    }
  }
}
