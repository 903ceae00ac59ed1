// Confere o hz-mock com o SDK oficial da OpenAI (npm openai): um pedido sem
// streaming, um com streaming e tool calls (juntando os deltas à mão), um com
// o ajudante de streaming do próprio SDK e um 429 com retry-after-ms que o SDK
// espera e tenta de novo. Não sobe nada: recebe a URL base.
//
// uso: node check.mjs http://127.0.0.1:PORTA/v1   (ou HZ_MOCK_URL=...)
// O hz-mock precisa estar servindo o cenário examples/sdk-compat.
import assert from 'node:assert/strict';
import OpenAI from 'openai';

const baseURL = process.argv[2] ?? process.env.HZ_MOCK_URL;
if (!baseURL) {
  console.error('uso: node check.mjs URL_BASE (ex.: http://127.0.0.1:8080/v1)');
  process.exit(2);
}

// Sem novas tentativas: uma falha do mock tem que aparecer, não ser escondida.
const client = new OpenAI({ baseURL, apiKey: 'hz-mock-nao-usa-chave', maxRetries: 0 });
const model = 'hz-mock-compat';
const tools = ['run_shell', 'read_file'].map((name) => ({
  type: 'function',
  function: { name, description: `ferramenta ${name}`, parameters: { type: 'object', properties: {} } },
}));

// 0. /v1/models
const models = await client.models.list();
assert.deepEqual(models.data.map((m) => m.id), [model]);

// 1. Sem streaming.
const messages = [{ role: 'user', content: 'o teste test_login falhou, corrija' }];
const first = await client.chat.completions.create({ model, messages });
assert.equal(first.choices[0].message.content, 'Olá do hz-mock, sem streaming.');
assert.equal(first.choices[0].finish_reason, 'stop');
assert.deepEqual(first.usage, { prompt_tokens: 21, completion_tokens: 7, total_tokens: 28 });
console.log('ok: sem streaming');

// 2. Streaming com duas tool calls, juntando os deltas como um harness faria.
messages.push(first.choices[0].message);
messages.push({ role: 'user', content: 'agora rode o teste e leia a configuração' });
const stream = await client.chat.completions.create({
  model, messages, tools, stream: true, stream_options: { include_usage: true },
});
let content = '';
let finish = null;
let usage = null;
const calls = [];
for await (const chunk of stream) {
  if (chunk.usage) usage = chunk.usage;
  const choice = chunk.choices[0];
  if (!choice) continue;
  if (choice.finish_reason) finish = choice.finish_reason;
  if (choice.delta.content) content += choice.delta.content;
  for (const delta of choice.delta.tool_calls ?? []) {
    const call = (calls[delta.index] ??= { id: '', name: '', arguments: '' });
    if (delta.id) call.id = delta.id;
    if (delta.function?.name) call.name = delta.function.name;
    if (delta.function?.arguments) call.arguments += delta.function.arguments;
  }
}
assert.equal(content, 'Vou rodar o teste e ler a configuração.');
assert.equal(finish, 'tool_calls');
assert.deepEqual(calls, [
  { id: 'call_run', name: 'run_shell', arguments: '{"command":"sh test_login.sh"}' },
  { id: 'call_read', name: 'read_file', arguments: '{"path":"config.ini"}' },
]);
assert.deepEqual(usage, { prompt_tokens: 88, completion_tokens: 41, total_tokens: 129 });
console.log('ok: streaming com tool calls');

// 3. Streaming pelo ajudante do SDK, que monta a mensagem final sozinho.
messages.push({
  role: 'assistant',
  content,
  tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
});
messages.push({ role: 'tool', tool_call_id: 'call_run', content: 'test_login ... FALHOU' });
messages.push({ role: 'tool', tool_call_id: 'call_read', content: 'cookie_ttl_seconds = 0' });
const runner = client.chat.completions.stream({ model, messages, tools });
const final = await runner.finalChatCompletion();
assert.equal(final.choices[0].message.content,
  'Terminei: a configuração ficou ação-ok, com acentuação intacta.');
assert.equal(final.choices[0].finish_reason, 'stop');
console.log('ok: streaming pelo ajudante do SDK');

// 4. Um 429 com Retry-After: 5 e retry-after-ms: 30. O SDK prefere o
// retry-after-ms: espera ~30 ms (não 5 s) e a segunda tentativa recebe a resposta.
const patient = new OpenAI({ baseURL, apiKey: 'hz-mock-nao-usa-chave', maxRetries: 1 });
const started = Date.now();
const retried = await patient.chat.completions.create({ model, messages: messages.slice(0, 1) });
const waited = Date.now() - started;
assert.equal(retried.choices[0].message.content, 'Respondi na segunda tentativa.');
assert.ok(waited >= 30 && waited < 2000, `esperou ${waited} ms`);
console.log(`ok: retry-after-ms lido pelo SDK (nova tentativa depois de ${waited} ms)`);

// 5. O mock não registrou nenhuma falha (expectativas conferidas em cada pedido).
const origin = new URL(baseURL).origin;
const failures = await (await fetch(`${origin}/hz/failures`)).json();
assert.deepEqual(failures, { failures: [] });
const recorded = await (await fetch(`${origin}/hz/requests`)).json();
assert.equal(recorded.requests.filter((r) => r.path === '/v1/chat/completions').length, 5);
console.log('ok: nenhuma falha registrada pelo hz-mock');
