import { OpenAiSuggestionProvider } from '../../../../subgraphs/notes/providers/openai.provider';
import type { LlmSettings } from '../../../../subgraphs/notes/providers/llm-settings';
import type { QuestionSuggestion } from '../../../../subgraphs/notes/providers/suggestion-provider';
import { migrationEvents } from '../../../../subgraphs/notes/services/migration-events';
import { startFakeLlmServer, type FakeLlmServer } from '../../../utils/fake-llm-server';

const LEGACY = { label: 'Smoking history (imported)', helpText: 'From the paper form', content: 'Do you smoke? Y/N\nHow often? daily / weekly / rarely' };

describe('the OpenAI-compatible provider against a local server speaking the streaming protocol', () => {
  let fake: FakeLlmServer;
  const settings = (extra: Partial<LlmSettings> = {}): LlmSettings => ({ baseUrl: fake.baseUrl, apiKey: 'sk-test', model: 'fake-model', timeoutMs: 5_000, ...extra });
  const collect = async (provider: OpenAiSuggestionProvider, signal = new AbortController().signal) => {
    const seen: QuestionSuggestion[] = [];
    for await (const suggestion of provider.suggest(LEGACY, signal)) seen.push(suggestion);
    return seen;
  };

  beforeAll(async () => {
    fake = await startFakeLlmServer();
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.mode = 'ok';
    fake.replyText = null;
    fake.requests.length = 0;
  });

  it('streams a chat completion and yields each JSON line as a suggestion, lines split across chunks', async () => {
    expect(await collect(new OpenAiSuggestionProvider(settings()))).toEqual(fake.reply);
    const [request] = fake.requests;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.body).toMatchObject({ model: 'fake-model', stream: true, temperature: 0 });
    expect(request.body.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('JSON Lines') });
    expect(request.body.messages[1].content).toContain(LEGACY.content);
  });

  it('tolerates code fences and blank lines, and normalises what it reads', async () => {
    fake.replyText = '```json\n{"kind":"multiple_choice","label":"  Symptoms ","options":["Rash","Rash"," Hives "]}\n\n{"kind":"date","label":"Date of injury","helpText":"","options":["x"],"required":true}\n```';
    expect(await collect(new OpenAiSuggestionProvider(settings()))).toEqual([
      { kind: 'multiple_choice', label: 'Symptoms', helpText: null, options: ['Rash', 'Hives'], required: false },
      { kind: 'date', label: 'Date of injury', helpText: null, options: [], required: true },
    ]);
  });

  it.each([
    ['prose instead of JSON Lines', 'garbage', null],
    ['an unknown kind', 'ok', '{"kind":"essay","label":"Tell us"}\n'],
    ['a choice without options', 'ok', '{"kind":"single_choice","label":"Pick","options":[]}\n'],
    ['an array', 'ok', '[1, 2]\n'],
  ] as const)('maps bad output (%s) to an error', async (_case, mode, text) => {
    fake.mode = mode;
    fake.replyText = text;
    await expect(collect(new OpenAiSuggestionProvider(settings()))).rejects.toThrow('The language model returned output that is not a list of question suggestions');
  });

  it('maps an error status to an error naming only the status', async () => {
    fake.mode = 'status';
    fake.status = 503;
    await expect(collect(new OpenAiSuggestionProvider(settings()))).rejects.toThrow('The language model service answered 503');
  });

  it('maps an unreachable service to an error', async () => {
    const provider = new OpenAiSuggestionProvider(settings({ baseUrl: 'http://127.0.0.1:9/v1' }));
    await expect(collect(provider)).rejects.toThrow('The language model service could not be reached');
  });

  it('times out when the model goes quiet, after yielding what came before', async () => {
    fake.mode = 'slow';
    const seen: QuestionSuggestion[] = [];
    const started = Date.now();
    const run = (async () => {
      for await (const suggestion of new OpenAiSuggestionProvider(settings({ timeoutMs: 300 })).suggest(LEGACY, new AbortController().signal)) seen.push(suggestion);
    })();
    await expect(run).rejects.toThrow('The language model did not answer in time');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(seen).toEqual([fake.reply[0]]);
    await fake.requests[0].finished;
    expect(fake.requests[0].aborted).toBe(true);
  });

  it('aborts the request when its signal aborts, and ends without an error', async () => {
    fake.mode = 'slow';
    const controller = new AbortController();
    const seen: QuestionSuggestion[] = [];
    for await (const suggestion of new OpenAiSuggestionProvider(settings()).suggest(LEGACY, controller.signal)) {
      seen.push(suggestion);
      setTimeout(() => controller.abort(), 50);
    }
    expect(seen).toHaveLength(1);
    await fake.requests[0].finished;
    expect(fake.requests[0].aborted).toBe(true);
  });

  it('as a migration stream: an error event for bad output, and return() cancels the model request at once', async () => {
    fake.mode = 'garbage';
    const log = jest.fn();
    const events = [];
    for await (const event of migrationEvents(new OpenAiSuggestionProvider(settings()), LEGACY, log, 'req-1')) events.push(event);
    expect(events).toEqual([{ type: 'error', message: 'The language model returned output that is not a list of question suggestions' }]);
    expect(log).toHaveBeenCalledWith({ provider: 'openai-compatible', reason: 'not JSON', requestId: 'req-1' });

    fake.mode = 'slow';
    fake.requests.length = 0;
    const stream = migrationEvents(new OpenAiSuggestionProvider(settings()), LEGACY, log, 'req-2');
    expect(await stream.next()).toEqual({ done: false, value: { type: 'question', index: 0, question: fake.reply[0] } });
    const pending = stream.next();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    expect(await stream.return!()).toEqual({ done: true, value: undefined });
    await fake.requests[0].finished;
    expect(fake.requests[0].aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await pending).toEqual({ done: true, value: undefined });
  });
});
