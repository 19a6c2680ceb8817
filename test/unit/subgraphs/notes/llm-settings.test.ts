import { loadConfig, ConfigError } from '../../../../gateway/config';
import { DEFAULT_LLM_TIMEOUT_MS, readLlmSettings } from '../../../../subgraphs/notes/providers/llm-settings';

describe('LLM_* settings of question migration', () => {
  it('choose the built-in provider when LLM_BASE_URL is unset', () => {
    expect(readLlmSettings({})).toEqual({ settings: null, problems: [] });
    expect(loadConfig({}).subgraphSettings.notes).toBeNull();
  });

  it('read the endpoint, key, model and timeout', () => {
    expect(readLlmSettings({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1/', LLM_MODEL: 'llama3.1', LLM_API_KEY: ' sk-1 ', LLM_TIMEOUT_MS: '5000' })).toEqual({
      settings: { baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'sk-1', model: 'llama3.1', timeoutMs: 5_000 },
      problems: [],
    });
    expect(loadConfig({ LLM_BASE_URL: 'https://api.openai.com/v1', LLM_MODEL: 'gpt-4o-mini' }).subgraphSettings.notes).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      apiKey: null,
      model: 'gpt-4o-mini',
      timeoutMs: DEFAULT_LLM_TIMEOUT_MS,
    });
  });

  it('report every problem, and the gateway lists them with its own', () => {
    expect(readLlmSettings({ LLM_BASE_URL: 'ftp://x', LLM_TIMEOUT_MS: '10' }).problems).toEqual([
      'LLM_TIMEOUT_MS must be a whole number from 100 to 600000 (got "10")',
      'LLM_BASE_URL must be an http:// or https:// URL',
      'LLM_MODEL is required when LLM_BASE_URL is set',
    ]);
    expect(() => loadConfig({ LLM_BASE_URL: 'not a url', PORT: 'x' })).toThrow(ConfigError);
    try {
      loadConfig({ LLM_BASE_URL: 'not a url', PORT: 'x' });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual(expect.arrayContaining([expect.stringContaining('PORT'), expect.stringContaining('LLM_BASE_URL')]));
    }
  });
});
