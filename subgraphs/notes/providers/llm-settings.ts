/** How to reach an OpenAI-compatible chat completions endpoint (docs/operations.md: configuration). */
export interface LlmSettings {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1; `/chat/completions` is appended. */
  baseUrl: string;
  /** Sent as a bearer token; local servers often need none. Never logged. */
  apiKey: string | null;
  model: string;
  /** Longest wait for the response to start and between two streamed chunks. */
  timeoutMs: number;
}

/** LLM_TIMEOUT_MS when unset: long enough for a slow model's first token, short enough for a person waiting. */
export const DEFAULT_LLM_TIMEOUT_MS = 30_000;

/**
 * Reads LLM_BASE_URL, LLM_API_KEY, LLM_MODEL and LLM_TIMEOUT_MS. Without LLM_BASE_URL the
 * built-in provider answers and the settings are null. Shared by the gateway's configuration
 * (all-in-one) and the notes subgraph's own main (distributed), so both accept the same values.
 */
export function readLlmSettings(env: NodeJS.ProcessEnv): { settings: LlmSettings | null; problems: string[] } {
  const text = (name: string) => (env[name] && env[name]!.trim() !== '' ? env[name]!.trim() : null);
  const problems: string[] = [];
  const baseUrl = text('LLM_BASE_URL');
  const rawTimeout = text('LLM_TIMEOUT_MS');
  const timeoutMs = rawTimeout === null ? DEFAULT_LLM_TIMEOUT_MS : Number(rawTimeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 600_000) problems.push(`LLM_TIMEOUT_MS must be a whole number from 100 to 600000 (got "${rawTimeout}")`);
  if (!baseUrl) return { settings: null, problems };
  let url: URL | null = null;
  try {
    url = new URL(baseUrl);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) problems.push('LLM_BASE_URL must be an http:// or https:// URL');
  const model = text('LLM_MODEL');
  if (!model) problems.push('LLM_MODEL is required when LLM_BASE_URL is set');
  return { settings: problems.length ? null : { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey: text('LLM_API_KEY'), model: model!, timeoutMs }, problems };
}
