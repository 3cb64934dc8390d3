/**
 * What a user of the OpenAI slice writes with the generated package: a chat answer in one
 * piece, the same answer streamed chunk by chunk (the `stream` flag picks the overload), a
 * stream cut short with `break` or an AbortSignal, and the Responses API's named events
 * narrowed by name, with event types this version does not know passed over, and a stream
 * that fails midway caught as the API's error by its `for await`. Generate the
 * package first (README.md); the test (test/example-openai.test.ts) runs every function here
 * against a stand-in for api.openai.com on 127.0.0.1.
 */
import {
  OpenAIApiError,
  OpenAIClient,
  type ChatMessage,
  type CompletionUsage,
  type FinishReason,
  type OpenAIClientOptions,
  type ResponseStatus,
} from "./generated/src/index.js";

/** A client for an API key (`baseUrl`: a stand-in in tests). */
export function connectOpenAI(
  apiKey: string,
  options: Partial<OpenAIClientOptions> = {},
): OpenAIClient {
  return new OpenAIClient({ baseUrl: "https://api.openai.com", ...options, apiKey });
}

/** The first choice's text of an answer in one piece (no `stream`: the ChatCompletion overload). */
export async function ask(client: OpenAIClient, model: string, question: string): Promise<string> {
  const completion = await client.chatCompletions.create({
    model,
    messages: [{ role: "user", content: question }],
  });
  return completion.choices[0]?.message.content ?? "";
}

/** What a streamed answer came to. */
export interface StreamedAnswer {
  text: string;
  chunks: number;
  finishReason: FinishReason | null;
  usage: CompletionUsage | null;
}

/**
 * An answer streamed chunk by chunk (`stream: true`: the Stream overload), each delta handed
 * to `onDelta` as it arrives; the usage comes in a last chunk without choices.
 */
export async function streamAnswer(
  client: OpenAIClient,
  model: string,
  messages: ChatMessage[],
  onDelta: (text: string) => void = () => {},
  signal?: AbortSignal,
): Promise<StreamedAnswer> {
  const stream = await client.chatCompletions.create(
    { model, messages, stream: true, stream_options: { include_usage: true } },
    signal ? { signal } : {},
  );
  const answer: StreamedAnswer = { text: "", chunks: 0, finishReason: null, usage: null };
  for await (const chunk of stream) {
    answer.chunks++;
    if (chunk.usage) answer.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) continue;
    const delta = choice.delta.content ?? "";
    answer.text += delta;
    if (delta) onDelta(delta);
    answer.finishReason = choice.finish_reason ?? answer.finishReason;
  }
  return answer;
}

/** What a streamed answer came to when the stream may fail after it began. */
export interface PartialAnswer {
  /** The text of the chunks that arrived before the failure (all of it without one). */
  text: string;
  /** The API's code and message of a failure inside the stream; null when it finished. */
  failure: string | null;
  /** The index of the stream item that was the error. */
  failedAtItem: number | null;
}

/**
 * An answer streamed chunk by chunk that keeps what arrived when the stream fails midway: a
 * stream that has begun (200) says it failed with `data: {"error": {...}}`, which the spec
 * declares, so the `for await` throws it as OpenAIApiError instead of yielding it as a chunk.
 */
export async function streamKeepingPartial(
  client: OpenAIClient,
  model: string,
  messages: ChatMessage[],
): Promise<PartialAnswer> {
  let text = "";
  try {
    const stream = await client.chatCompletions.create({ model, messages, stream: true });
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
  } catch (error) {
    if (!(error instanceof OpenAIApiError) || error.streamItem === undefined) throw error;
    const code = String(error.code ?? "no code");
    return { text, failure: `${code}: ${error.serverMessage}`, failedAtItem: error.streamItem };
  }
  return { text, failure: null, failedAtItem: null };
}

/** The first `words` words of a streamed answer: `break` closes the connection at once. */
export async function firstWords(
  client: OpenAIClient,
  model: string,
  question: string,
  words: number,
): Promise<string> {
  const stream = await client.chatCompletions.create({
    model,
    messages: [{ role: "user", content: question }],
    stream: true,
  });
  let text = "";
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? "";
    if (text.trim().split(/\s+/).length > words) break;
  }
  return text.trim().split(/\s+/).slice(0, words).join(" ");
}

/** What a streamed model response came to, read off its named events. */
export interface ResponseOutcome {
  text: string;
  status: ResponseStatus;
  /** Event types this version of the package does not list, by name. */
  unknown: string[];
  lastEventId: string | undefined;
}

/**
 * A Responses API answer streamed as named events, each narrowed by its name. The `error`
 * event is not among them: it ends the stream and is thrown as OpenAIApiError.
 */
export async function streamResponse(
  client: OpenAIClient,
  model: string,
  input: string,
): Promise<ResponseOutcome> {
  const stream = await client.responses.create({ model, input, stream: true });
  const outcome: ResponseOutcome = {
    text: "",
    status: "in_progress",
    unknown: [],
    lastEventId: undefined,
  };
  for await (const e of stream) {
    switch (e.event) {
      case "response.output_text.delta":
        outcome.text += e.data.delta;
        break;
      case "response.output_text.done":
        outcome.text = e.data.text; // the whole text, as the deltas joined should give it
        break;
      case "response.created":
      case "response.in_progress":
      case "response.completed":
      case "response.failed":
        outcome.status = e.data.response.status;
        break;
      default:
        // an event type added to the API after this package was generated
        outcome.unknown.push(String(e.event));
    }
  }
  outcome.lastEventId = stream.lastEventId;
  return outcome;
}

/** A failed call as an answer: the API's error code and message, or the error's name. */
export async function describeFailure(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return "ok";
  } catch (error) {
    if (error instanceof OpenAIApiError)
      return `${error.status} ${String(error.code)}: ${error.serverMessage}`;
    return error instanceof Error ? error.name : String(error);
  }
}
