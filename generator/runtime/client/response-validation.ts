/**
 * Response validation (the client's `validateResponses`, docs/client.md): success bodies and
 * stream items checked against the spec's types. The request loop (core.ts) never imports
 * this module's code: the validators come in through the client option `responseValidators`
 * (the package's `./validators` entry), so a bundle that never turns validation on keeps none
 * of them. What a problem shows is the endpoint and the JSON path with what is wrong there,
 * never the body's text or a string of it: a body may hold secrets (docs/security.md).
 */
import { jsonPath } from "../standard-schema.js";
import type { Validator, ValidationIssue } from "../validate.js";
import { fromData } from "../validator-data.js";
import type { ResultState } from "./api-promise.js";
import { ClientError } from "./errors.js";
import { redact } from "./redact.js";

/** `off`: responses are not checked; `warn`: the client's logger gets one line per response; `throw`: a ResponseValidationError. */
export type ResponseValidationMode = "off" | "warn" | "throw";

/** The logger the client has: `warn` where it has one, else `debug`. */
interface Logger {
  debug(message: string): void;
  warn?(message: string): void;
}

/** What the request loop hands over: the client's options that concern validation. */
interface ValidationOptions {
  validateResponses?: ResponseValidationMode;
  logger?: Logger;
}

/** A success body, or an item of a stream, that does not match its type in the spec. */
export class ResponseValidationError extends ClientError {
  override name = "ResponseValidationError";
  constructor(
    endpointId: string,
    /** JSON path of the first problem, from `$` (the body, or the stream item): `$.card.last4`. */
    readonly path: string,
    /** What is wrong there, e.g. `is required`, `must be "card"`. */
    readonly problem: string,
    /** How many problems the value has (at most 101: the validators stop listing there). */
    readonly problems: number,
    /** Of a stream: the index of the item. */
    readonly streamItem?: number,
  ) {
    const what = streamItem === undefined ? "response body" : `stream item ${streamItem}`;
    const more =
      problems > 1 ? ` (and ${problems - 1} more problem${problems > 2 ? "s" : ""})` : "";
    super(
      `${endpointId}: the ${what} does not match the spec: ${path} ${problem}${more}`,
      endpointId,
    );
  }
}

/** An endpoint's entry as data: the shapes of its JSON body, of its stream items, of each named event's data. */
interface EntryData {
  body?: unknown;
  item?: unknown;
  events?: Record<string, unknown>;
}

/** An endpoint's validators, each built at its first use. */
interface Entry {
  body?: Validator;
  item?: Validator;
  events?: Record<string, Validator>;
}

/** A Stream as this module sees it: the hook its items go through (stream.ts). */
interface CheckedStream {
  check?: (value: unknown, index: number, event: string | undefined) => void;
}

/**
 * The validators of every endpoint's success body and stream items, by endpoint id: the
 * client option `responseValidators`. Made by the generated `./validators` entry with
 * `responseValidation()`.
 */
export class ResponseValidators {
  /** Entries as data, until an endpoint's first checked response builds its own. */
  private data: Record<string, EntryData> | undefined;
  private readonly built = new Map<string, Entry | undefined>();
  private readonly names: string[] = [];

  constructor(
    /** `[names, { [endpoint id]: EntryData }]`, as validator-data.ts's text with entries for shapes. */
    private readonly text: string,
    /** What each name stands for, in the same order. */
    private readonly refs: unknown[],
  ) {}

  /**
   * For the request loop, once per success: the result as it is, after its body (or, for a
   * stream, each item as it arrives) is checked as the client's `validateResponses` says.
   */
  check(
    op: { id: string; emptyStatus?: number },
    result: unknown,
    state: ResultState,
    status: number,
    options: ValidationOptions,
    secrets: readonly string[],
  ): unknown {
    const mode = options.validateResponses ?? "off";
    // a 304, and the 2xx the spec says comes without a body, have no body to check
    if (mode === "off" || state.mode === 2 || status === 304 || status === op.emptyStatus)
      return result;
    const entry = this.entry(op.id);
    if (!entry) return result;
    const report = (issues: ValidationIssue[], item?: number) => {
      const first = issues[0]!;
      const error = new ResponseValidationError(
        op.id,
        redact(jsonPath(first.path), secrets),
        redact(first.message, secrets),
        issues.length,
        item,
      );
      if (mode === "throw") throw error;
      const logger = options.logger;
      if (logger) (logger.warn ?? logger.debug).call(logger, error.message);
    };
    if (state.open) {
      const stream = result as CheckedStream;
      const { item, events } = entry;
      if (!item && !events) return result;
      let warned = false;
      stream.check = (value, index, event) => {
        const check = events ? (event === undefined ? undefined : events[event]) : item;
        if (!check || (warned && mode === "warn")) return;
        const issues: ValidationIssue[] = [];
        check(value, "", issues);
        if (issues.length === 0) return;
        warned = true;
        report(issues, index);
      };
      return result;
    }
    if (!entry.body) return result;
    const body = state.mode === 1 ? (result as { data: unknown }).data : result;
    const issues: ValidationIssue[] = [];
    entry.body(body, "", issues);
    if (issues.length > 0) report(issues);
    return result;
  }

  /** The validators of an endpoint, built at its first checked response; undefined when it has none. */
  private entry(id: string): Entry | undefined {
    if (this.built.has(id)) return this.built.get(id);
    if (!this.data) {
      const [names, data] = JSON.parse(this.text) as [string[], Record<string, EntryData>];
      this.names.push(...names);
      this.data = data;
    }
    const data = Object.prototype.hasOwnProperty.call(this.data, id) ? this.data[id] : undefined;
    const build = (shape: unknown) => fromData(JSON.stringify([this.names, shape]), ...this.refs);
    let entry: Entry | undefined;
    if (data) {
      entry = {};
      if (data.body !== undefined) entry.body = build(data.body);
      if (data.item !== undefined) entry.item = build(data.item);
      if (data.events) {
        // No prototype: an event named `__proto__` is looked up as itself.
        const events: Record<string, Validator> = Object.create(null);
        for (const [name, shape] of Object.entries(data.events)) events[name] = build(shape);
        entry.events = events;
      }
    }
    this.built.set(id, entry);
    return entry;
  }
}

/**
 * The `responseValidators` of the generated `./validators` entry: the text `[names, entries]`
 * and, beside it, what each name stands for, in the same order (validator-data.ts says why).
 */
export function responseValidation(text: string, ...refs: unknown[]): ResponseValidators {
  return new ResponseValidators(text, refs);
}
