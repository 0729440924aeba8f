// The few globals the pure layers (src/core, src/present) rely on beyond ECMAScript itself. Every
// JavaScript host the project runs on provides them (Node ≥ 20, browsers, the webview, the extension
// host), so the pure code is compiled against these declarations alone: no DOM and no Node types.
// Keep the list short; a new entry needs a reason that holds in every host.

interface TextDecodeOptions {
  stream?: boolean;
}

interface TextDecoderOptions {
  fatal?: boolean;
  ignoreBOM?: boolean;
}

interface TextDecoder {
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  decode(input?: ArrayBufferView | ArrayBuffer, options?: TextDecodeOptions): string;
}

declare var TextDecoder: {
  prototype: TextDecoder;
  new (label?: string, options?: TextDecoderOptions): TextDecoder;
};

interface TextEncoderEncodeIntoResult {
  read: number;
  written: number;
}

interface TextEncoder {
  readonly encoding: string;
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): TextEncoderEncodeIntoResult;
}

declare var TextEncoder: {
  prototype: TextEncoder;
  new (): TextEncoder;
};

/** Used only to yield to the event loop between slices of a long load. */
declare function setTimeout(callback: (...args: never[]) => void, delay?: number): unknown;
