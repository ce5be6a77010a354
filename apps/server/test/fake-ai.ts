import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible API and Azure speech on loopback (tests and e2e): chat completions, audio
 * transcriptions, models, and `/tts/{region}/cognitiveservices/v1`. It checks the bearer key, records
 * every call, and answers what the test sets.
 */
export type TFakeAiCall = { path: string; headers: IncomingMessage['headers']; body: Buffer; json?: any };

export const FAKE_OGG = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(60, 1), Buffer.from('OpusHead')]);

export const startFakeAi = async (opts: { apiKey?: string; voiceKey?: string } = {}) => {
  const calls: TFakeAiCall[] = [];
  const state = {
    apiKey: opts.apiKey ?? 'sk-test-key-000000000001',
    voiceKey: opts.voiceKey ?? 'azure-voice-key-0001',
    /** what the chat answers: a fixed text, or built from the messages sent */
    reply: ((messages: { role: string; content: string }[]) => `Resposta a: ${messages.at(-1)?.content ?? ''}`) as (
      messages: { role: string; content: string }[],
    ) => string,
    /** a status to answer with instead (401, 429, 500) */
    failWith: 0,
    /** hold the chat answer this long */
    delayMs: 0,
    transcription: 'quero saber o preço',
    models: ['gpt-4o-mini', 'llama3.1:8b', 'qwen2.5:7b'],
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const path = (req.url ?? '').split('?')[0] ?? '';
      let json: any;
      if ((req.headers['content-type'] ?? '').includes('json')) {
        try {
          json = JSON.parse(body.toString('utf8'));
        } catch {
          json = undefined;
        }
      }
      calls.push({ path, headers: req.headers, body, json });
      if (path.startsWith('/tts/')) {
        if (req.headers['ocp-apim-subscription-key'] !== state.voiceKey) return send(res, 401, { error: 'key' });
        if (!String(req.headers['content-type']).includes('ssml')) return send(res, 400, { error: 'ssml' });
        res.writeHead(200, { 'content-type': 'audio/ogg' }).end(FAKE_OGG);
        return;
      }
      if (req.headers.authorization !== `Bearer ${state.apiKey}`) {
        return send(res, 401, { error: { message: 'Incorrect API key provided' } });
      }
      if (path.endsWith('/models'))
        return send(res, 200, { data: state.models.map((id) => ({ id, object: 'model' })) });
      if (state.failWith) return send(res, state.failWith, { error: { message: `failing with ${state.failWith}` } });
      if (path.endsWith('/audio/transcriptions')) {
        if (!String(req.headers['content-type']).startsWith('multipart/form-data')) return send(res, 400, {});
        return send(res, 200, { text: state.transcription });
      }
      if (path.endsWith('/chat/completions')) {
        if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
        const content = state.reply(json?.messages ?? []);
        return send(res, 200, {
          id: 'chatcmpl-1',
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        });
      }
      send(res, 404, { error: 'not found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    /** the base URL a prompt uses */
    baseUrl: `${url}/v1`,
    /** AZURE_TTS_URL for the server */
    ttsTemplate: `${url}/tts/{region}/cognitiveservices/v1`,
    state,
    calls,
    chats: () => calls.filter((c) => c.path.endsWith('/chat/completions')),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
};
