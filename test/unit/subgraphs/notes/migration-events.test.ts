import { MAX_SUGGESTIONS, SuggestionError, type QuestionSuggestion, type SuggestionProvider } from '../../../../subgraphs/notes/providers/suggestion-provider';
import { migrationEvents } from '../../../../subgraphs/notes/services/migration-events';
import { QuestionKind } from '../../../../subgraphs/notes/types/question-kind';

const LEGACY = { label: 'Form', helpText: null, content: 'irrelevant' };
const suggestion = (label: string): QuestionSuggestion => ({ kind: QuestionKind.TEXT, label, helpText: null, options: [], required: false });

/** A provider that yields `count` suggestions, then fails with `error` if given. */
function provider(count: number, error?: Error): SuggestionProvider {
  return {
    name: 'test',
    async *suggest() {
      for (let i = 0; i < count; i++) yield suggestion(`Q${i}`);
      if (error) throw error;
    },
  };
}

const collect = async (events: AsyncIterable<unknown>) => {
  const seen = [];
  for await (const event of events) seen.push(event);
  return seen;
};

describe('the migration event stream', () => {
  it('numbers suggestions from 0 and ends with done and the count', async () => {
    expect(await collect(migrationEvents(provider(2), LEGACY, jest.fn(), 'r'))).toEqual([
      { type: 'question', index: 0, question: suggestion('Q0') },
      { type: 'question', index: 1, question: suggestion('Q1') },
      { type: 'done', count: 2 },
    ]);
  });

  it("passes a provider's safe message on, and logs only its category", async () => {
    const log = jest.fn();
    const events = await collect(migrationEvents(provider(1, new SuggestionError('The language model did not answer in time', 'timeout')), LEGACY, log, 'r'));
    expect(events.at(-1)).toEqual({ type: 'error', message: 'The language model did not answer in time' });
    expect(log).toHaveBeenCalledWith({ provider: 'test', reason: 'timeout', requestId: 'r' });
  });

  it('hides an unexpected error behind a generic message, and logs its type and frames but never its message', async () => {
    const log = jest.fn();
    const events = await collect(migrationEvents(provider(0, new TypeError('Patient Jane Doe, HIV positive')), LEGACY, log, 'r'));
    expect(events).toEqual([{ type: 'error', message: 'Generating suggestions failed' }]);
    const [failure] = log.mock.calls[0];
    expect(failure).toMatchObject({ provider: 'test', reason: 'unexpected', requestId: 'r', errorType: 'TypeError' });
    expect(JSON.stringify(failure)).not.toContain('Jane');
  });

  it(`stops at ${MAX_SUGGESTIONS} suggestions`, async () => {
    const events = await collect(migrationEvents(provider(MAX_SUGGESTIONS + 5), LEGACY, jest.fn(), 'r'));
    expect(events).toHaveLength(MAX_SUGGESTIONS + 1);
    expect(events.at(-1)).toEqual({ type: 'done', count: MAX_SUGGESTIONS });
  });

  it('after return() it yields nothing more and aborts the provider', async () => {
    let aborted = false;
    const slow: SuggestionProvider = {
      name: 'slow',
      async *suggest(_question, signal) {
        yield suggestion('first');
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        aborted = signal.aborted;
      },
    };
    const events = migrationEvents(slow, LEGACY, jest.fn(), 'r');
    expect((await events.next()).value).toMatchObject({ type: 'question' });
    const pending = events.next();
    await events.return!();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(aborted).toBe(true);
    expect(await events.next()).toEqual({ done: true, value: undefined });
  });
});
