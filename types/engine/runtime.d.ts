/**
 * The few globals the engine uses beyond ES2022, all present in every place it runs (Node 20,
 * the page, a Web Worker). Declared here, narrowly, so tsconfig.engine.json can leave out the
 * DOM and Node typings: anything else the engine touches outside ES2022 is a type error.
 */
interface TextDecoderOptions {
  fatal?: boolean;
  ignoreBOM?: boolean;
}

declare class TextDecoder {
  constructor(label?: string, options?: TextDecoderOptions);
  readonly encoding: string;
  decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string;
}

declare class TextEncoder {
  readonly encoding: string;
  encode(input?: string): Uint8Array;
}

declare function structuredClone<T>(value: T): T;
