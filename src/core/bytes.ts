// A caller's bytes, read without trusting the object that holds them. A Uint8Array subclass can override
// every method and its length, a Proxy can pose as one, and a detached buffer throws on first use; the
// engine's own getters (which nothing overrides) tell what the memory really is.
// The typed-array facts read through the engine's own getters: a subclass or an instance cannot override
// them, a Proxy makes them throw, and a detached buffer shows through (its view cannot be made).
const TYPED_ARRAY = Object.getPrototypeOf(Uint8Array.prototype) as object;
const intrinsic = (owner: object, key: string) => Object.getOwnPropertyDescriptor(owner, key)!.get!;
const bufferOf = intrinsic(TYPED_ARRAY, 'buffer');
const offsetOf = intrinsic(TYPED_ARRAY, 'byteOffset');
const lengthOf = intrinsic(TYPED_ARRAY, 'byteLength');
const viewBufferOf = intrinsic(DataView.prototype, 'buffer');
const viewOffsetOf = intrinsic(DataView.prototype, 'byteOffset');
const viewLengthOf = intrinsic(DataView.prototype, 'byteLength');
const arrayBufferLengthOf = intrinsic(ArrayBuffer.prototype, 'byteLength');

/**
 * A plain Uint8Array over the same memory as a caller's bytes, made from the engine's own getters: nothing
 * the caller's object overrides (methods, a lying length) is used. Throws for what is not a typed array.
 */
export function plainView(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bufferOf.call(bytes) as ArrayBuffer, offsetOf.call(bytes) as number, lengthOf.call(bytes) as number);
}

/**
 * The bytes of a Uint8Array (a Node Buffer is one), another typed array or DataView, or an ArrayBuffer; undefined
 * for anything else — a Proxy, a detached buffer, a value that only claims to be bytes. A Uint8Array is kept
 * as given (a Buffer's own search is faster); everything that reads it makes a `plainView` first.
 */
export function asBytes(input: unknown): Uint8Array | undefined {
  try {
    if (typeof input !== 'object' || input === null) return undefined;
    if (ArrayBuffer.isView(input)) {
      if (input instanceof DataView)
        return new Uint8Array(
          viewBufferOf.call(input) as ArrayBuffer,
          viewOffsetOf.call(input) as number,
          viewLengthOf.call(input) as number,
        );
      const view = plainView(input as Uint8Array); // throws for a detached buffer
      return input instanceof Uint8Array && lengthOf.call(input) === view.length ? input : view;
    }
    arrayBufferLengthOf.call(input); // throws unless an ArrayBuffer
    return new Uint8Array(input as ArrayBuffer);
  } catch {
    return undefined; // a Proxy, a detached buffer, an object that only looks like bytes
  }
}
