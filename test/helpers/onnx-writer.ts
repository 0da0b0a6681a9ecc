/**
 * Just enough of the ONNX protobuf (onnx.proto3) to write a model from a test or a script:
 * ModelProto, GraphProto, NodeProto with attributes, TensorProto initializers (raw_data) and
 * ValueInfoProto with symbolic dimensions. No weights are downloaded here; tests and benches
 * write their own models with this (test/helpers/tiny-bert.ts, scripts/minilm-model.ts).
 */

export type Field = Uint8Array;

/** A protobuf varint; negative numbers as 64-bit two's complement (ten bytes), as int64 fields want. */
export function varint(value: number): number[] {
  const out: number[] = [];
  let v = value < 0 ? BigInt.asUintN(64, BigInt(value)) : BigInt(value);
  while (v > 127n) {
    out.push(Number(v & 127n) | 128);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Field `field` as a varint (wire type 0). */
export const int = (field: number, value: number): Field => Uint8Array.from([...varint(field << 3), ...varint(value)]);
/** Field `field` as length-delimited bytes (wire type 2). */
export const bytes = (field: number, value: Uint8Array): Field => concat([Uint8Array.from([...varint((field << 3) | 2), ...varint(value.length)]), value]);
export const str = (field: number, value: string): Field => bytes(field, new TextEncoder().encode(value));
/** An embedded message made of `fields`. */
export const message = (field: number, ...fields: Field[]): Field => bytes(field, concat(fields));
/** Field `field` as a 32-bit float (wire type 5). */
export function float32(field: number, value: number): Field {
  const body = new Uint8Array(4);
  new DataView(body.buffer).setFloat32(0, value, true);
  return concat([Uint8Array.from(varint((field << 3) | 5)), body]);
}

/** TensorProto.DataType */
export const FLOAT = 1;
export const INT64 = 7;

/** ValueInfoProto with a tensor type as field `field` (11 graph input, 12 output); dims are names (symbolic) or sizes. */
export function valueInfo(field: number, name: string, elemType: number, dims: readonly (string | number)[]): Field {
  const shape = dims.map((dim) => message(1, typeof dim === 'string' ? str(2, dim) : int(1, dim)));
  return message(field, str(1, name), message(2, message(1, int(1, elemType), message(2, ...shape))));
}

/** A graph initializer (TensorProto, field 5 of GraphProto) holding `data` as raw little-endian bytes. */
export function initializer(name: string, dims: readonly number[], data: Float32Array | BigInt64Array): Field {
  const type = data instanceof Float32Array ? FLOAT : INT64;
  return message(5, ...dims.map((dim) => int(1, dim)), int(2, type), str(8, name), bytes(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength)));
}

/** AttributeProto values: a number is an INT unless `float` says otherwise; an array is INTS. */
export type Attribute = { name: string; int: number } | { name: string; float: number } | { name: string; ints: readonly number[] };

function attribute(value: Attribute): Field {
  if ('int' in value) return message(5, str(1, value.name), int(3, value.int), int(20, 2));
  if ('float' in value) return message(5, str(1, value.name), float32(2, value.float), int(20, 1));
  return message(5, str(1, value.name), ...value.ints.map((v) => int(8, v)), int(20, 7));
}

/** A NodeProto (field 1 of GraphProto). `domain` '' is the default ONNX domain. */
export function node(opType: string, inputs: readonly string[], outputs: readonly string[], name: string, attributes: readonly Attribute[] = [], domain = ''): Field {
  return message(1, ...inputs.map((input) => str(1, input)), ...outputs.map((output) => str(2, output)), str(3, name), str(4, opType), ...attributes.map(attribute), ...(domain ? [str(7, domain)] : []));
}

export interface GraphParts {
  name: string;
  /** From {@link node}, in topological order. */
  nodes: readonly Field[];
  /** From {@link initializer}. */
  initializers: readonly Field[];
  /** From {@link valueInfo} with field 11. */
  inputs: readonly Field[];
  /** From {@link valueInfo} with field 12. */
  outputs: readonly Field[];
}

/** A serialised ModelProto (IR version 8) importing the default domain at `opset`. */
export function modelProto(graph: GraphParts, opset: number, producer = 'engram-test'): Uint8Array {
  const body = message(7, ...graph.nodes, str(2, graph.name), ...graph.initializers, ...graph.inputs, ...graph.outputs);
  return concat([int(1, 8), str(2, producer), body, message(8, str(1, ''), int(2, opset))]);
}
