// Values built to break a function that trusts its arguments: wrong types, BigInts, symbols, Proxies that
// throw on every trap or claim 2^32−1 elements, cycles, shared parts, holes, values nested 20,000 levels
// deep, typed arrays that lie about their length or throw from their methods, detached buffers. Each is
// made fresh per call (a function may keep or change what it is given).

const DEPTH = 20_000;

function deepArray(): unknown {
  let v: unknown = 1;
  for (let i = 0; i < DEPTH; i++) v = [v];
  return v;
}

function deepObject(): unknown {
  let v: unknown = 1;
  for (let i = 0; i < DEPTH; i++) v = { a: v };
  return v;
}

/** A value whose every part is shared twice, 40 levels down: 2^40 leaves once written out. */
function exponentialDag(): unknown {
  let v: unknown = { leaf: 'x' };
  for (let i = 0; i < 40; i++) v = { left: v, right: v };
  return v;
}

const throwAll: ProxyHandler<object> = new Proxy(
  {},
  {
    get: () => (): never => {
      throw new Error('trap');
    },
  },
);

/** An array Proxy claiming 2^32−1 elements, each read answering 0. */
function lyingArray(): unknown {
  return new Proxy([], {
    get: (target, key) => (key === 'length' ? 2 ** 32 - 1 : typeof key === 'string' && /^\d+$/.test(key) ? 0 : Reflect.get(target, key)),
    has: () => true,
  });
}

class ThrowingBytes extends Uint8Array {
  override indexOf(): number {
    throw new Error('indexOf');
  }
  override subarray(): never {
    throw new Error('subarray');
  }
  override slice(): never {
    throw new Error('slice');
  }
  override get length(): number {
    return 2 ** 31;
  }
}

function detachedBytes(): Uint8Array {
  const bytes = new Uint8Array(16);
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  return bytes;
}

function cyclicObject(): unknown {
  const o: Record<string, unknown> = { a: 1 };
  o.self = o;
  return o;
}

function cyclicArray(): unknown {
  const a: unknown[] = [1];
  a.push(a);
  return a;
}

function throwingGetter(): unknown {
  return Object.defineProperty({}, 'anything', {
    enumerable: true,
    get() {
      throw new Error('getter');
    },
  });
}

/** A getter that answers differently each time it is read. */
function shiftyObject(): unknown {
  let n = 0;
  return {
    get seq() {
      return n++ % 2 === 0 ? 1 : 'one';
    },
    get type() {
      return n++ % 2 === 0 ? 'session/title' : { not: 'a string' };
    },
  };
}

export const HOSTILE_VALUES: readonly [string, () => unknown][] = [
  ['undefined', () => undefined],
  ['null', () => null],
  ['true', () => true],
  ['0', () => 0],
  ['-1', () => -1],
  ['1.5', () => 1.5],
  ['NaN', () => NaN],
  ['Infinity', () => Infinity],
  ['-0', () => -0],
  ['2^53', () => 2 ** 53],
  ['BigInt', () => 10n],
  ['huge BigInt', () => 10n ** 5000n],
  ['empty string', () => ''],
  ['control string', () => '\u001b]0;PWNED\u0007\u001b[2J\n'],
  ['long string', () => 'x'.repeat(1_000_000)],
  ['symbol', () => Symbol('s')],
  ['function', () => () => 1],
  ['empty object', () => ({})],
  ['empty array', () => []],
  ['array of 1.5', () => [1.5]],
  ['array of NaN', () => [NaN]],
  ['array of null', () => [null]],
  // eslint-disable-next-line no-sparse-arrays
  ['sparse array', () => [, 1]],
  ['array of holes', () => new Array(5)],
  ['array of 2·10^6', () => new Array(2_000_000).fill(0)],
  ['lying array Proxy', lyingArray],
  ['throwing Proxy', () => new Proxy({}, throwAll)],
  ['throwing array Proxy', () => new Proxy([], throwAll)],
  ['Uint8Array Proxy', () => new Proxy(new Uint8Array(8), {})],
  ['throwing Uint8Array subclass', () => new ThrowingBytes(8)],
  ['detached Uint8Array', detachedBytes],
  ['DataView', () => new DataView(new ArrayBuffer(4))],
  ['ArrayBuffer', () => new ArrayBuffer(4)],
  ['empty Uint8Array', () => new Uint8Array(0)],
  ['cyclic object', cyclicObject],
  ['cyclic array', cyclicArray],
  [
    'shared part',
    () => {
      const part = { x: 1 };
      return { a: part, b: [part, part] };
    },
  ],
  ['exponential DAG', exponentialDag],
  ['deep array', deepArray],
  ['deep object', deepObject],
  ['throwing getter', throwingGetter],
  ['shifty getters', shiftyObject],
  ['Date', () => new Date(0)],
  ['Map', () => new Map([[1, 2]])],
  ['null prototype', () => Object.create(null)],
  ['toString member', () => ({ toString: 1, valueOf: 2 })],
  ['array-like with huge length', () => ({ length: 2 ** 32 - 1 })],
  ['boxed string', () => Object('abc')],
];
