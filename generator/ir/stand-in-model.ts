/**
 * The stand-in's part of the IR: the route table the generated `src/testing.ts` prints (the
 * runtime's own data types, so the printed table and the runtime cannot drift apart), and
 * the events the trigger sends, which stay in the generator.
 */
import type { Shape, ShapeTable } from "../runtime/testing/shape.ts";
import type { RouteData, StandInTable } from "../runtime/testing/table.ts";
import type { HttpMethod, ReplayPlaces, SignatureScheme } from "./model.ts";

/** The route table without validators: the generated file adds each route's validators. */
export type StandInData = Omit<StandInTable, "routes"> & { routes: RouteData[] };

/** One thing the trigger can send: a callback or a webhook delivery (one event, or the one payload). */
export interface TriggerEvent {
  /** The callback's event, the webhook event's name, or `webhook` for a webhook's one payload. */
  name: string;
  kind: "callback" | "webhook";
  method: HttpMethod;
  /** Path after the merchant's base address; empty for a webhook (its URL is the whole address). */
  path: string;
  /** Parameters sent as path segments after the path, in order, with their shapes. */
  trailing: { name: string; shape: Shape }[];
  /** Fixed headers the spec gives (Content-Type ...). */
  headers: [string, string][];
  /** Header and credential of keys the service sends along (`X-API-Key`), not the signature. */
  keyHeaders: { header: string; credential: string; scheme?: string }[];
  signatureHeader?: string;
  /** How the signature is written (the credential's scheme); with `signatureHeader`. */
  signatureScheme?: SignatureScheme;
  /** Where the signed call carries its signing time and delivery id, which the trigger sends. */
  replay?: ReplayPlaces;
  /** Headers of a webhook delivery the spec declares, with the shapes of their values. */
  deliveryHeaders?: { name: string; shape: Shape }[];
  /** Header naming the webhook event, when deliveries name it in a header. */
  eventHeader?: string;
  body?: Shape;
  success?: Shape;
  /** A success answer has a 2xx status, a failure answer any other. */
  failure?: Shape;
}

export interface StandInModel {
  table: StandInData;
  events: TriggerEvent[];
  /** Shapes the events reach (request bodies, answers, webhook payloads). */
  eventTypes: ShapeTable;
}
