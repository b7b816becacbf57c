/**
 * The catalog's types. Keys are en.ts's; a message's parameters are read from its English text at
 * compile time (`'Step {id}'` takes `{ id }`), so a call with a missing or misspelt parameter does
 * not compile. Each language is one file of type `Catalog`.
 */
import type { en } from './en';

/** Forms by plural category (Intl.PluralRules); `other` is required, as every language has it. */
type PluralForms = { readonly [C in Intl.LDMLPluralRule]?: string } & { readonly other: string };
export type Message = string | PluralForms;

export type MessageKey = keyof typeof en;
export type Catalog = { readonly [K in MessageKey]: Message };

type FormsOf<M> = M extends string ? M : M[keyof M] & string;
export type ParamName<S extends string> = S extends `${string}{${infer P}}${infer Rest}` ? P | ParamName<Rest> : never;

type ParamNameOf<K extends MessageKey> = ParamName<FormsOf<(typeof en)[K]>>;
/** Parameter values: numbers are formatted for the language (Intl.NumberFormat), strings shown as they are. */
type Params<K extends MessageKey> = { readonly [P in ParamNameOf<K>]: string | number };
/** A message without parameters takes none; one with parameters takes all of them. */
export type ParamArgs<K extends MessageKey> = [ParamNameOf<K>] extends [never] ? [] : [params: Params<K>];

/** A message to show later, in whatever language the reader has then (notices, for example). */
export type MessageRef = { [K in MessageKey]: { readonly key: K; readonly params?: Params<K> } }[MessageKey];
