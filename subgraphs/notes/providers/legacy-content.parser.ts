import { QuestionKind } from '../types/question-kind';
import { MAX_SUGGESTIONS, type QuestionSuggestion } from './suggestion-provider';

// The built-in provider's reading rules (issue 6): a line is a question; markers on it pick the kind.
const CHECKBOX = /^(?:[-*•]\s*)?\[\s*[xX✓✔]?\s*\]\s*(.+)$/;
const LIST_MARKER = /^(?:[-*•]|\d{1,2}[.)])\s+/;
const REQUIRED = /\(required\)|\*(?=\s*:?\s*$)/gi;
const BLANKS = /_{2,}|\.{4,}/g;
const YES_NO = /\(?\s*\b(?:yes\s*(?:\/|or)\s*no|y\s*\/\s*n)\b\s*\)?/i;
const SCALE = /\(?\s*(?:on a scale (?:of|from)\s*)?\b([01])\s*(?:-|–|to)\s*10\b\s*\)?/i;
const DATE_FORMAT = /\(?\s*\b(?:mm|dd)\s*\/\s*(?:dd|mm)\s*\/\s*yy(?:yy)?\b\s*\)?/i;
const DATE = /\b(?:date|dob)\b/i;
const NUMBER = /\b(?:how many|number of)\b/i;
const MULTIPLE = /\(?\s*(?:check|select|tick|mark) (?:all|any) that apply\s*\)?/i;
const MAX_OPTION = 60;

/** A question being read: option lines that follow may still join it. */
interface Draft extends QuestionSuggestion {
  /** A plain prompt ("Symptoms:") takes the checkbox items under it as its options. */
  takesOptions: boolean;
  /** Started by a checkbox item with no prompt above it. */
  promptless: boolean;
}

const tidy = (text: string): string =>
  text
    .replace(/\(\s*\)/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/\s+([?.,;:!])/g, '$1')
    .replace(/[,;:]+\?/g, '?')
    .replace(/[\s:;,-]+$/, '')
    .trim()
    .slice(0, 500);

/** "When did it start? Date:" -> "When did it start?": a word or two after the question mark only named the answer's kind. */
const dropTrailingHint = (label: string) => label.replace(/\?\s*[A-Za-z]+(?:\s+[A-Za-z]+)?$/, '?');

/** "Smoker: never / former / current" and "(a / b / c)": the label and its options, or null. */
function inlineChoice(text: string): { label: string; options: string[] } | null {
  const split = (list: string) => list.split('/').map((o) => tidy(o));
  const valid = (options: string[]) =>
    options.length >= 2 && options.every((o) => o.length > 0 && o.length <= MAX_OPTION) && new Set(options.map((o) => o.toLowerCase())).size === options.length;
  const paren = /\(([^()]*\/[^()]*)\)/.exec(text);
  if (paren) {
    const options = split(paren[1]);
    if (valid(options)) return { label: text.replace(paren[0], ' '), options };
  }
  const cut = Math.max(text.lastIndexOf('?'), text.lastIndexOf(':'));
  if (cut >= 0 && text.slice(cut + 1).includes('/')) {
    const options = split(text.slice(cut + 1));
    if (valid(options)) return { label: text.slice(0, cut + 1), options };
  }
  return null;
}

const isYesNo = (options: string[]) => options.length === 2 && /^(yes|y)$/i.test(options[0]) && /^(no|n)$/i.test(options[1]);

/** Reads one prompt line: its label, kind, options and whether it is required. */
function readLine(line: string): Draft {
  let text = line.replace(LIST_MARKER, '').replace(BLANKS, ' ').trim();
  const required = text.replace(REQUIRED, '') !== text;
  text = text.replace(REQUIRED, ' ');
  const draft: Draft = { kind: QuestionKind.TEXT, label: '', helpText: null, options: [], required, takesOptions: false, promptless: false };
  const multiple = MULTIPLE.test(text);
  text = text.replace(MULTIPLE, ' ');
  const scale = SCALE.exec(text);
  const choice = scale || DATE_FORMAT.test(text) ? null : inlineChoice(text);
  if (choice && isYesNo(choice.options)) {
    Object.assign(draft, { kind: QuestionKind.YES_NO, label: choice.label });
  } else if (choice) {
    // "(yes / no / not sure)" offers a third answer: a choice, not a yes/no.
    Object.assign(draft, { kind: multiple ? QuestionKind.MULTIPLE_CHOICE : QuestionKind.SINGLE_CHOICE, label: choice.label, options: choice.options });
  } else if (YES_NO.test(text)) {
    Object.assign(draft, { kind: QuestionKind.YES_NO, label: text.replace(YES_NO, ' ') });
  } else if (scale) {
    Object.assign(draft, { kind: QuestionKind.SCALE, label: text.replace(SCALE, ' '), helpText: `Scale from ${scale[1]} to 10` });
  } else if (DATE_FORMAT.test(text) || DATE.test(text)) {
    Object.assign(draft, { kind: QuestionKind.DATE, label: dropTrailingHint(tidy(text.replace(DATE_FORMAT, ' '))) });
  } else {
    Object.assign(draft, { kind: NUMBER.test(text) ? QuestionKind.NUMBER : QuestionKind.TEXT, label: text, takesOptions: true });
  }
  draft.label = tidy(draft.label) || tidy(line);
  return draft;
}

/** A section heading ("PAIN ASSESSMENT") introduces questions; it is not one. */
const isHeading = (line: string) => /[A-Z]{2,}/.test(line) && !/[a-z]/.test(line) && !/[?:]\s*$/.test(line);

/** The suggestion a finished draft stands for; a choice needs two options, so a lone checkbox is a yes/no. */
function finish(draft: Draft): QuestionSuggestion {
  const { kind, label, helpText, options, required } = draft;
  if (kind === QuestionKind.MULTIPLE_CHOICE && options.length === 0) return { kind: QuestionKind.TEXT, label, helpText, options, required };
  if (kind === QuestionKind.MULTIPLE_CHOICE && options.length === 1) {
    return { kind: QuestionKind.YES_NO, label: options[0], helpText: draft.promptless ? helpText : label, options: [], required };
  }
  return { kind, label, helpText, options, required };
}

/**
 * Reads legacy form wording and yields the structured questions it implies, one by one as each
 * is complete: every line is a question, except section headings and checkbox items, which
 * become the options of the prompt above them ("[ ] a", "- [ ] b": multiple choice).
 */
export function* parseLegacyContent(content: string): Generator<QuestionSuggestion> {
  let draft: Draft | null = null;
  let emitted = 0;
  for (const raw of content.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const checkbox = CHECKBOX.exec(line);
    if (checkbox && draft?.takesOptions) {
      addOption(draft, checkbox[1]);
      continue;
    }
    if (draft) {
      yield finish(draft);
      if (++emitted >= MAX_SUGGESTIONS) return;
    }
    if (checkbox) {
      draft = { kind: QuestionKind.MULTIPLE_CHOICE, label: 'Select all that apply', helpText: null, options: [], required: false, takesOptions: true, promptless: true };
      addOption(draft, checkbox[1]);
    } else {
      draft = isHeading(line) ? null : readLine(line);
    }
  }
  if (draft) yield finish(draft);
}

/** A checkbox item joins the prompt above it, which becomes a multiple choice. */
function addOption(draft: Draft, text: string): void {
  const option = tidy(text).slice(0, 200);
  draft.kind = QuestionKind.MULTIPLE_CHOICE;
  if (option && draft.options.length < 50 && !draft.options.some((o) => o.toLowerCase() === option.toLowerCase())) draft.options.push(option);
}
