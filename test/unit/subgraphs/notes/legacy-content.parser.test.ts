import { BuiltInSuggestionProvider } from '../../../../subgraphs/notes/providers/built-in.provider';
import { parseLegacyContent } from '../../../../subgraphs/notes/providers/legacy-content.parser';
import { MAX_SUGGESTIONS } from '../../../../subgraphs/notes/providers/suggestion-provider';

const parse = (content: string) => [...parseLegacyContent(content)];
const one = (line: string) => {
  const [suggestion, ...rest] = parse(line);
  expect(rest).toEqual([]);
  return suggestion;
};

describe('the built-in provider reading legacy form wording', () => {
  it('turns a line ending in "?" into a text question, and any other line too', () => {
    expect(parse("Reason for today's visit?\nEmergency contact name and phone number")).toEqual([
      { kind: 'text', label: "Reason for today's visit?", helpText: null, options: [], required: false },
      { kind: 'text', label: 'Emergency contact name and phone number', helpText: null, options: [], required: false },
    ]);
  });

  it.each(['Do you smoke? (yes/no)', 'Do you smoke? Y/N', 'Do you smoke? yes / no', 'Do you smoke yes or no?', 'Do you smoke? (Yes / No)'])('reads "%s" as a yes/no question', (line) => {
    expect(one(line)).toEqual({ kind: 'yes_no', label: expect.stringMatching(/^Do you smoke\??$/), helpText: null, options: [], required: false });
  });

  it.each([
    ['Rate your pain right now (0-10)', 'Rate your pain right now', '0'],
    ['Pain level 1-10:', 'Pain level', '1'],
    ['Rate your sleep from 0 to 10', 'Rate your sleep from', '0'],
    ['How much does pain limit you, on a scale of 1 to 10?', 'How much does pain limit you?', '1'],
  ])('reads "%s" as a scale', (line, label, low) => {
    expect(one(line)).toEqual({ kind: 'scale', label, helpText: `Scale from ${low} to 10`, options: [], required: false });
  });

  it('reads "a / b / c" after a prompt or in parentheses as a single choice', () => {
    expect(one('Preferred contact method: phone / email / text message')).toEqual({
      kind: 'single_choice',
      label: 'Preferred contact method',
      helpText: null,
      options: ['phone', 'email', 'text message'],
      required: false,
    });
    expect(one('Smoking status (never / former / current)')).toMatchObject({ kind: 'single_choice', label: 'Smoking status', options: ['never', 'former', 'current'] });
    expect(one('Any drug allergies? (yes / no / not sure)')).toMatchObject({ kind: 'single_choice', label: 'Any drug allergies?', options: ['yes', 'no', 'not sure'] });
  });

  it('reads an inline list marked "check all that apply" as a multiple choice', () => {
    expect(one('Symptoms (check all that apply): numbness / tingling / weakness')).toMatchObject({
      kind: 'multiple_choice',
      label: 'Symptoms',
      options: ['numbness', 'tingling', 'weakness'],
    });
  });

  it('turns checkbox items into the options of the prompt above them, in every usual spelling', () => {
    const content = ['What makes the pain worse?', '[ ] Sitting', '- [ ] Standing', '* [x] Walking', '[] Lifting', 'Anything else?'].join('\n');
    expect(parse(content)).toEqual([
      { kind: 'multiple_choice', label: 'What makes the pain worse?', helpText: null, options: ['Sitting', 'Standing', 'Walking', 'Lifting'], required: false },
      { kind: 'text', label: 'Anything else?', helpText: null, options: [], required: false },
    ]);
  });

  it('gives checkbox items with no prompt a generic label, and makes a lone checkbox a yes/no', () => {
    expect(parse('[ ] Rash\n[ ] Swelling')).toEqual([{ kind: 'multiple_choice', label: 'Select all that apply', helpText: null, options: ['Rash', 'Swelling'], required: false }]);
    expect(parse('Consent:\n[ ] I agree to the treatment plan')).toEqual([
      { kind: 'yes_no', label: 'I agree to the treatment plan', helpText: 'Consent', options: [], required: false },
    ]);
  });

  it('starts a new group when checkboxes follow a question of another kind', () => {
    expect(parse('Any allergies? (yes/no)\n[ ] Rash\n[ ] Hives').map((s) => s.kind)).toEqual(['yes_no', 'multiple_choice']);
  });

  it.each([
    ['Date of birth (MM/DD/YYYY)', 'Date of birth'],
    ['When did the pain start? Date: ____________', 'When did the pain start?'],
    ['DOB:', 'DOB'],
    ['Last dose (dd/mm/yyyy)', 'Last dose'],
  ])('reads "%s" as a date', (line, label) => {
    expect(one(line)).toEqual({ kind: 'date', label, helpText: null, options: [], required: false });
  });

  it('does not take words containing "date" for dates', () => {
    expect(one('Please update your address')).toMatchObject({ kind: 'text' });
  });

  it('reads counts as numbers', () => {
    expect(one('How many prescriptions do you fill each month?')).toMatchObject({ kind: 'number' });
    expect(one('Number of pregnancies')).toMatchObject({ kind: 'number' });
  });

  it('marks "*" and "(required)" questions required, and strips list numbering and fill-in blanks', () => {
    expect(one('1. Full name*')).toEqual({ kind: 'text', label: 'Full name', helpText: null, options: [], required: true });
    expect(one('- Occupation (required): ______')).toEqual({ kind: 'text', label: 'Occupation', helpText: null, options: [], required: true });
  });

  it('skips blank lines and section headings, and reads CRLF text', () => {
    expect(parse('PAIN ASSESSMENT\r\n\r\n  Where is the pain?  \r\nSECTION 2 - HISTORY\r\nPrevious surgery? Y/N')).toEqual([
      { kind: 'text', label: 'Where is the pain?', helpText: null, options: [], required: false },
      { kind: 'yes_no', label: 'Previous surgery?', helpText: null, options: [], required: false },
    ]);
  });

  it('yields each question as soon as the next line shows it is complete', () => {
    const lines = parseLegacyContent('First?\nSecond?\n[ ] a\n[ ] b');
    expect(lines.next().value).toMatchObject({ label: 'First?' });
    expect(lines.next().value).toMatchObject({ label: 'Second?', options: ['a', 'b'] });
    expect(lines.next().done).toBe(true);
  });

  it(`stops at ${MAX_SUGGESTIONS} suggestions`, () => {
    const content = Array.from({ length: MAX_SUGGESTIONS + 50 }, (_, i) => `Question ${i}?`).join('\n');
    expect(parse(content)).toHaveLength(MAX_SUGGESTIONS);
  });

  it('yields nothing for empty or blank content', () => {
    expect(parse('')).toEqual([]);
    expect(parse('\n  \n\t')).toEqual([]);
  });

  it('stops as soon as its signal aborts', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const suggestion of new BuiltInSuggestionProvider().suggest({ label: 'Form', helpText: null, content: 'A?\nB?\nC?' }, controller.signal)) {
      seen.push(suggestion.label);
      controller.abort();
    }
    expect(seen).toEqual(['A?']);
  });
});
