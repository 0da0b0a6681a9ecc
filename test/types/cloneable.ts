/**
 * Type-level check that a value survives `structuredClone` (what Comlink does to every argument
 * and result crossing the worker boundary) with its type intact: plain data, arrays, typed
 * arrays and buffers. A function anywhere in it is `false` (structuredClone throws on one), and
 * so is a class instance with methods (it arrives as a plain object without them).
 */
type Primitive = string | number | boolean | bigint | null | undefined;

export type Cloneable<T> = [T] extends [never]
  ? true // the items of an empty argument list
  : T extends Primitive
    ? true
    : T extends void // a method's result when it returns nothing
      ? true
      : T extends (...args: never[]) => unknown
        ? false
        : T extends ArrayBufferView | ArrayBuffer
          ? true
          : T extends readonly (infer Item)[]
            ? Cloneable<Item>
            : T extends object
              ? false extends { [K in keyof T]-?: Cloneable<T[K]> }[keyof T]
                ? false
                : true
              : false;

/**
 * The methods of `Api` whose arguments or (awaited) result are not {@link Cloneable}: `never`
 * when every call can cross the worker boundary.
 */
export type NotCloneableMethods<Api> = {
  [K in keyof Api]: Api[K] extends (...args: infer Args) => infer Result ? ([Cloneable<Args>, Cloneable<Awaited<Result>>] extends [true, true] ? never : K) : K;
}[keyof Api];
