import { CHOICE_KINDS, QUESTION_KINDS, type QuestionKind } from '../types/question-kind';
import { SuggestionError, type QuestionSuggestion } from './suggestion-provider';

/** The model's answer broke the JSON Lines contract of the prompt: the stream ends with an `error` event. */
export const badOutput = (reason: string) => new SuggestionError('The language model returned output that is not a list of question suggestions', reason);

/** Splits streamed text into complete lines; the last, unfinished one waits for more text. */
export class LineSplitter {
  private pending = '';

  /** Adds text and returns the lines it completed. */
  push(text: string): string[] {
    this.pending += text;
    const lines = this.pending.split('\n');
    this.pending = lines.pop() ?? '';
    // One endless line is no JSON Lines answer, and would otherwise grow without bound.
    if (this.pending.length > 20_000) throw badOutput('line too long');
    return lines;
  }

  /** The unfinished line once the text ended, if any. */
  end(): string[] {
    const rest = this.pending;
    this.pending = '';
    return rest.trim() ? [rest] : [];
  }
}

const isString = (value: unknown): value is string => typeof value === 'string';

/**
 * Reads one line of the model's answer: a suggestion, or null for a blank line or a Markdown code
 * fence (models add them despite the prompt). Anything else that is not a valid suggestion is bad output.
 */
export function parseSuggestionLine(line: string): QuestionSuggestion | null {
  const text = line.trim();
  if (!text || text.startsWith('```')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badOutput('not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badOutput('not an object');
  const { kind, label, helpText, options, required } = value as Record<string, unknown>;
  if (!isString(kind) || !QUESTION_KINDS.includes(kind as QuestionKind)) throw badOutput('unknown kind');
  if (!isString(label) || !label.trim()) throw badOutput('no label');
  if (helpText !== undefined && helpText !== null && !isString(helpText)) throw badOutput('helpText not a string');
  if (options !== undefined && options !== null && !(Array.isArray(options) && options.every(isString))) throw badOutput('options not strings');
  if (required !== undefined && required !== null && typeof required !== 'boolean') throw badOutput('required not a boolean');
  const choices = CHOICE_KINDS.has(kind as QuestionKind) ? [...new Set((options ?? []).map((o) => o.trim().slice(0, 200)).filter(Boolean))].slice(0, 50) : [];
  if (CHOICE_KINDS.has(kind as QuestionKind) && choices.length < 2) throw badOutput('choice without options');
  return {
    kind: kind as QuestionKind,
    label: label.trim().slice(0, 500),
    helpText: isString(helpText) && helpText.trim() ? helpText.trim().slice(0, 1_000) : null,
    options: choices,
    required: required === true,
  };
}
