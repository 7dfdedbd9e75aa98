// The official OpenAI Node SDK against gpurt serve: chat and completion,
// whole and streamed. Run by server's TestOpenAINodeSDK with BASE_URL set.
import OpenAI from "openai";

const client = new OpenAI({ baseURL: process.env.BASE_URL, apiKey: process.env.API_KEY, maxRetries: 0 });
const fail = (msg) => { console.error("FAIL: " + msg); process.exit(1); };
const out = {};

const models = await client.models.list();
if (models.data.length !== 1) fail("models: " + JSON.stringify(models.data));
out.model = models.data[0].id;

const chat = await client.chat.completions.create({
  model: out.model, messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Tell me of Bath." }],
  max_tokens: 12, temperature: 0,
});
const msg = chat.choices[0].message;
if (msg.role !== "assistant" || !msg.content) fail("chat: " + JSON.stringify(chat));
if (chat.usage.completion_tokens < 1 || chat.usage.completion_tokens > 12) fail("chat usage: " + JSON.stringify(chat.usage));
out.chat = msg.content;

let streamed = "", finish = null, usage = null;
const stream = await client.chat.completions.create({
  model: out.model, messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Tell me of Bath." }],
  max_tokens: 12, temperature: 0, stream: true, stream_options: { include_usage: true },
});
for await (const chunk of stream) {
  if (chunk.usage) usage = chunk.usage;
  const c = chunk.choices[0];
  if (!c) continue;
  streamed += c.delta?.content ?? "";
  if (c.finish_reason) finish = c.finish_reason;
}
if (streamed !== out.chat) fail(`chat stream ${JSON.stringify(streamed)} != ${JSON.stringify(out.chat)}`);
if (!finish || !usage) fail("chat stream: no finish reason or usage");
out.chatStreamFinish = finish;

const comp = await client.completions.create({ model: out.model, prompt: "It is a truth universally acknowledged", max_tokens: 10, temperature: 0 });
if (!comp.choices[0].text) fail("completion: " + JSON.stringify(comp));
out.completion = comp.choices[0].text;

let ctext = "";
const cstream = await client.completions.create({ model: out.model, prompt: "It is a truth universally acknowledged", max_tokens: 10, temperature: 0, stream: true });
for await (const chunk of cstream) ctext += chunk.choices[0]?.text ?? "";
if (ctext !== out.completion) fail(`completion stream ${JSON.stringify(ctext)} != ${JSON.stringify(out.completion)}`);

try {
  await client.chat.completions.create({ model: out.model, messages: [], max_tokens: 1 });
  fail("empty messages were accepted");
} catch (e) {
  if (!(e instanceof OpenAI.BadRequestError)) fail("empty messages: " + e);
  out.badRequest = e.message;
}
console.log(JSON.stringify(out));
