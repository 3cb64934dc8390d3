/**
 * The stand-in's part of the IR: the route table the generated `src/testing.ts` prints (the
 * runtime's own data types, so the printed table and the runtime cannot drift apart), and
 * the events the trigger sends, which stay in the generator.
 */
import type { DeliveryEvent } from "../runtime/testing/deliver.ts";
import type { ShapeTable } from "../runtime/testing/shape.ts";
import type { RouteData, StandInTable } from "../runtime/testing/table.ts";
import type { HttpMethod, ReplayPlaces } from "./model.ts";

/** The route table without validators: the generated file adds each route's validators. */
export type StandInData = Omit<StandInTable, "routes"> & { routes: RouteData[] };

/**
 * One thing the trigger and the stand-in send: the runtime's own event data (a callback or a
 * webhook delivery), with the method one of the model's and the replay places the model's.
 */
export interface TriggerEvent extends DeliveryEvent {
  method: HttpMethod;
  replay?: ReplayPlaces;
}

export interface StandInModel {
  table: StandInData;
  events: TriggerEvent[];
  /** Shapes the events reach (request bodies, answers, webhook payloads). */
  eventTypes: ShapeTable;
}
