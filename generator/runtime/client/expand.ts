/**
 * The type of an answer whose expandable fields follow the call's `expand` list. An
 * expandable field is an id or the object it names (`string | Customer`); the server sends
 * the object only for the paths the call asked for. A types-only module: nothing of it is
 * left in JavaScript.
 */

/**
 * `T` with each expandable field of `Plan` narrowed by `Asked`, the paths the call listed:
 * the object where its path is listed, the id where it is not (`null` stays where the field
 * is nullable). `Plan` holds the expandable paths as nested fields (`{ customer: true;
 * charges: { card: true } }`): an array adds no step, as in `expand: ["charges.card"]`.
 * `Prefix` is the path of `T` in the answer (`data.` for a page's items).
 *
 * Only a list whose entries the compiler knows (a tuple: `["customer"]` written in the call)
 * narrows; a list of unknown length (a `string[]` variable) leaves every field as declared,
 * an id or an object.
 */
export type Expanded<
  T,
  Asked extends readonly string[],
  Plan,
  Prefix extends string = "",
> = number extends Asked["length"] ? T : ExpandedBy<T, Asked[number], Plan, Prefix>;

type ExpandedBy<
  T,
  Asked extends string,
  Plan,
  Prefix extends string,
> = T extends readonly (infer Item)[]
  ? ExpandedBy<Item, Asked, Plan, Prefix>[]
  : T extends object
    ? {
        [K in keyof T]: K extends keyof Plan & string
          ? ExpandedField<T[K], Asked, Plan[K], `${Prefix}${K}`>
          : T[K];
      }
    : T;

type ExpandedField<V, Asked extends string, Entry, Path extends string> = Entry extends true
  ? Path extends Asked
    ? Exclude<V, string>
    : Extract<V, string | null | undefined>
  : ExpandedBy<V, Asked, Entry, `${Path}.`>;
