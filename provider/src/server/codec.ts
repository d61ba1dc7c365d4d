// The wire format of every ResourceProvider message this provider reads or writes (and of the
// engine's Log request), read and written with protobufjs's Reader and Writer straight to and
// from plain values: each message is a schema (messages.ts), field for field as pulumi/proto declares it,
// and every handler takes and gives plain objects. google-protobuf builds a message object per
// value, about 13 kB of heap per small record, and a large function answer took seconds and
// gigabytes (docs/performance.md, "The wire"). The bytes written are google-protobuf's own
// (serializeBinary), byte for byte: test/server/codec.test.ts proves it over a corpus of every
// message the engine sends and every answer.
import { Reader, Writer } from "protobufjs/minimal";

/** A `google.protobuf.Value` as plain JavaScript: what google-protobuf's `toJavaScript()` gives. */
export type StructValue = null | number | string | boolean | StructValue[] | StructObject;
/** A `google.protobuf.Struct` as plain JavaScript (secrets, unknowns and assets are Pulumi's sentinels in it). */
export interface StructObject {
  [key: string]: StructValue;
}

// ---- Struct, Value, ListValue ----

// Tags (field number << 3 | wire type) of struct.proto.
const STRUCT_FIELDS = (1 << 3) | 2;
const ENTRY_KEY = (1 << 3) | 2;
const ENTRY_VALUE = (2 << 3) | 2;
const NULL_VALUE = (1 << 3) | 0;
const NUMBER_VALUE = (2 << 3) | 1;
const STRING_VALUE = (3 << 3) | 2;
const BOOL_VALUE = (4 << 3) | 0;
const STRUCT_VALUE = (5 << 3) | 2;
const LIST_VALUE = (6 << 3) | 2;
const LIST_VALUES = (1 << 3) | 2;

/** What google-protobuf says of a value it cannot write (undefined, a bigint, a function) or read (no kind). */
const UNEXPECTED = "Unexpected struct type.";

/**
 * A string as UTF-8 the engine can read: Go refuses a string field that is not valid UTF-8, so a
 * lone surrogate (never in what the engine sends) is written U+FFFD, as Node writes it.
 */
type Es2024String = { isWellFormed(): boolean; toWellFormed(): string };
const wellFormed = (text: string) => {
  const checked = text as unknown as Es2024String;
  return checked.isWellFormed() ? text : checked.toWellFormed();
};

/**
 * A double as google-protobuf writes it: the same IEEE bits as protobufjs, except NaN, which it
 * writes as 0x7FFFFFFFFFFFFFFF rather than JavaScript's 0x7FF8000000000000.
 */
function writeDouble(writer: Writer, value: number): void {
  if (Number.isNaN(value)) writer.fixed32(0xffffffff).fixed32(0x7fffffff);
  else writer.double(value);
}

// A Struct is written in two passes, as Go's protobuf writes a message: first the size of everything
// nested (numbers in one array, in the order they will be written), then the bytes, straight into
// one buffer of the exact size. protobufjs's Writer, used for the messages around, keeps a list of
// operations (several objects per value, and one per nested message) until it finishes: for a list
// function's answer of 6 MB that was hundreds of thousands of objects, most of the plugin's time
// in the garbage collector and its peak memory (docs/performance.md, row 17).

const varintLength = (value: number) =>
  value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;

/** The sizes of a Struct's entries (entry, key, value), its values' and its lists', in the order they are written. */
type Sizes = number[];

/** Struct's map entries in the order google-protobuf writes them: sorted by key (UTF-16 code units). */
const sortedKeys = (object: StructObject) => Object.keys(object).sort();

function sizeStruct(object: StructObject, sizes: Sizes): number {
  let total = 0;
  for (const key of sortedKeys(object)) {
    const slot = sizes.length;
    sizes.push(0, 0, 0);
    const keyBytes = Buffer.byteLength(wellFormed(key));
    const valueBytes = sizeValue(object[key], sizes);
    const entryBytes = 1 + varintLength(keyBytes) + keyBytes + 1 + varintLength(valueBytes) + valueBytes;
    sizes[slot] = entryBytes;
    sizes[slot + 1] = keyBytes;
    sizes[slot + 2] = valueBytes;
    total += 1 + varintLength(entryBytes) + entryBytes;
  }
  return total;
}

function sizeValue(value: StructValue, sizes: Sizes): number {
  switch (typeof value) {
    case "string": {
      const bytes = Buffer.byteLength(wellFormed(value));
      sizes.push(bytes);
      return 1 + varintLength(bytes) + bytes;
    }
    case "number":
      return 9;
    case "boolean":
      return 2;
    case "object": {
      if (value === null) return 2;
      const slot = sizes.length;
      sizes.push(0);
      let bytes = 0;
      if (Array.isArray(value)) {
        for (const item of value) {
          const itemSlot = sizes.length;
          sizes.push(0);
          const itemBytes = sizeValue(item, sizes);
          sizes[itemSlot] = itemBytes;
          bytes += 1 + varintLength(itemBytes) + itemBytes;
        }
      } else bytes = sizeStruct(value, sizes);
      sizes[slot] = bytes;
      return 1 + varintLength(bytes) + bytes;
    }
    default:
      throw new Error(UNEXPECTED);
  }
}

/** The second pass: the bytes into `buffer`, each size taken from `sizes` where the first pass put it. */
class StructBytes {
  pos = 0;
  private next = 0;
  constructor(
    private readonly buffer: Buffer,
    private readonly sizes: Sizes,
  ) {}

  private byte(value: number): void {
    this.buffer[this.pos++] = value;
  }

  private varint(value: number): void {
    while (value > 0x7f) {
      this.buffer[this.pos++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    this.buffer[this.pos++] = value;
  }

  private text(text: string, bytes: number): void {
    this.varint(bytes);
    this.pos += this.buffer.write(wellFormed(text), this.pos, bytes, "utf8");
  }

  struct(object: StructObject): void {
    for (const key of sortedKeys(object)) {
      this.byte(STRUCT_FIELDS);
      this.varint(this.sizes[this.next++]);
      this.byte(ENTRY_KEY);
      this.text(key, this.sizes[this.next++]);
      this.byte(ENTRY_VALUE);
      this.varint(this.sizes[this.next++]);
      this.value(object[key]);
    }
  }

  private value(value: StructValue): void {
    switch (typeof value) {
      case "string":
        this.byte(STRING_VALUE);
        this.text(value, this.sizes[this.next++]);
        return;
      case "number":
        this.byte(NUMBER_VALUE);
        // google-protobuf writes NaN as 0x7FFFFFFFFFFFFFFF, not JavaScript's 0x7FF8000000000000.
        if (Number.isNaN(value)) {
          this.pos = this.buffer.writeUInt32LE(0xffffffff, this.pos);
          this.pos = this.buffer.writeUInt32LE(0x7fffffff, this.pos);
        } else this.pos = this.buffer.writeDoubleLE(value, this.pos);
        return;
      case "boolean":
        this.byte(BOOL_VALUE);
        this.byte(value ? 1 : 0);
        return;
      default:
        if (value === null) {
          this.byte(NULL_VALUE);
          this.byte(0);
        } else if (Array.isArray(value)) {
          this.byte(LIST_VALUE);
          this.varint(this.sizes[this.next++]);
          for (const item of value) {
            this.byte(LIST_VALUES);
            this.varint(this.sizes[this.next++]);
            this.value(item);
          }
        } else {
          this.byte(STRUCT_VALUE);
          this.varint(this.sizes[this.next++]);
          this.struct(value as StructObject);
        }
    }
  }
}

/** An own property even for `__proto__` (a plain assignment would set the object's prototype). */
function set<V>(object: Record<string, V>, key: string, value: V): void {
  if (key !== "__proto__") object[key] = value;
  else Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A Struct's entries with their keys sorted, as google-protobuf's `toJavaScript()` gives them
 * (the engine writes a map in no particular order); a repeated key keeps its last value.
 */
function readStruct(reader: Reader, end: number): StructObject {
  const keys: string[] = [];
  const values: StructValue[] = [];
  let sorted = true;
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag !== STRUCT_FIELDS) {
      reader.skipType(tag & 7);
      continue;
    }
    const entryEnd = reader.uint32() + reader.pos;
    let key = "";
    let value: StructValue | undefined;
    while (reader.pos < entryEnd) {
      const entryTag = reader.uint32();
      if (entryTag === ENTRY_KEY) key = reader.string();
      else if (entryTag === ENTRY_VALUE) value = readValue(reader, reader.uint32() + reader.pos);
      else reader.skipType(entryTag & 7);
    }
    if (value === undefined) throw new Error(UNEXPECTED);
    if (keys.length > 0 && keys[keys.length - 1] >= key) sorted = false;
    keys.push(key);
    values.push(value);
  }
  const object: StructObject = {};
  if (sorted) {
    for (let i = 0; i < keys.length; i++) set(object, keys[i], values[i]);
    return object;
  }
  const latest = new Map<string, StructValue>();
  for (let i = 0; i < keys.length; i++) latest.set(keys[i], values[i]);
  for (const key of [...latest.keys()].sort()) set(object, key, latest.get(key)!);
  return object;
}

function readValue(reader: Reader, end: number): StructValue {
  let value: StructValue | undefined;
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag) {
      case NULL_VALUE:
        reader.int32();
        value = null;
        break;
      case NUMBER_VALUE:
        value = reader.double();
        break;
      case STRING_VALUE:
        value = reader.string();
        break;
      case BOOL_VALUE:
        value = reader.bool();
        break;
      case STRUCT_VALUE:
        value = readStruct(reader, reader.uint32() + reader.pos);
        break;
      case LIST_VALUE:
        value = readList(reader, reader.uint32() + reader.pos);
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  if (value === undefined) throw new Error(UNEXPECTED);
  return value;
}

function readList(reader: Reader, end: number): StructValue[] {
  const list: StructValue[] = [];
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag === LIST_VALUES) list.push(readValue(reader, reader.uint32() + reader.pos));
    else reader.skipType(tag & 7);
  }
  return list;
}

/** A Struct's bytes as plain values (google-protobuf's `Struct.deserializeBinary(bytes).toJavaScript()`). */
export function decodeStruct(bytes: Uint8Array): StructObject {
  const reader = Reader.create(bytes);
  return readStruct(reader, reader.len);
}

/** Plain values as a Struct's bytes (google-protobuf's `Struct.fromJavaScript(object).serializeBinary()`). */
export function encodeStruct(object: StructObject): Buffer {
  const sizes: Sizes = [];
  const buffer = Buffer.allocUnsafe(sizeStruct(object, sizes));
  new StructBytes(buffer, sizes).struct(object);
  return buffer;
}

// ---- the messages ----

/** How a scalar or repeated field is written, with what a message holds when it is absent (proto3's default). */
interface Scalars {
  string: string;
  /** A proto3 `optional string`: written whenever set, "" included; absent is undefined. */
  optionalString: string | undefined;
  bool: boolean;
  int32: number;
  double: number;
  bytes: Uint8Array;
  strings: string[];
  struct: StructObject | undefined;
  /** Messages this provider does not read (a View), kept as their bytes so that they are written back as they came. */
  raws: Uint8Array[];
}
type Scalar = keyof Scalars;
/**
 * A field: its number and its kind; a message's (or its repeated items') schema; an enum's value
 * names, in number order (plain values are the names); a map's value, `"string"` or a schema (its
 * keys are strings).
 */
type FieldOf =
  | readonly [number, Scalar]
  | readonly [number, "message" | "repeated", Schema]
  | readonly [number, "enum", readonly string[]]
  | readonly [number, "map", "string" | Schema];
export type Schema = { readonly [name: string]: FieldOf };
type Kind = FieldOf[1];

type ValueOf<F extends FieldOf> = F extends readonly [number, infer K extends Scalar]
  ? Scalars[K]
  : F extends readonly [number, "message", infer M extends Schema]
    ? Message<M> | undefined
    : F extends readonly [number, "repeated", infer M extends Schema]
      ? Message<M>[]
      : F extends readonly [number, "enum", infer Names extends readonly string[]]
        ? // A number the schema does not name (a newer engine's) is read as the number.
          Names[number] | number
        : F extends readonly [number, "map", "string"]
          ? Record<string, string>
          : F extends readonly [number, "map", infer M extends Schema]
            ? Record<string, Message<M>>
            : never;

/** A message as plain values, typed from its schema. */
export type Message<S extends Schema> = { -readonly [F in keyof S]: ValueOf<S[F]> };

const WIRE_TYPE: Record<Kind, number> = {
  string: 2,
  optionalString: 2,
  bool: 0,
  int32: 0,
  double: 1,
  enum: 0,
  bytes: 2,
  strings: 2,
  struct: 2,
  raws: 2,
  message: 2,
  repeated: 2,
  map: 2,
};

function defaultOf(field: FieldOf): unknown {
  switch (field[1]) {
    case "string":
      return "";
    case "bool":
      return false;
    case "double":
    case "int32":
      return 0;
    case "enum":
      return field[2][0];
    case "bytes":
      return Buffer.alloc(0);
    case "optionalString":
    case "struct":
    case "message":
      return undefined;
    case "map":
      return {};
    default:
      return [];
  }
}

/** Fields in field-number order: the order google-protobuf writes them. */
const ordering = new WeakMap<Schema, Array<[string, FieldOf]>>();
function inOrder(schema: Schema): Array<[string, FieldOf]> {
  let fields = ordering.get(schema);
  if (!fields) ordering.set(schema, (fields = Object.entries(schema).sort(([, a], [, b]) => a[0] - b[0])));
  return fields;
}

function enumNumber(name: string, names: readonly string[], value: string | number): number {
  if (typeof value === "number") return value;
  const number = names.indexOf(value);
  if (number < 0) throw new Error(`${name} is ${JSON.stringify(value)}, which is none of ${names.join(", ")}`);
  return number;
}

/** A message field's bytes, as google-protobuf writes one: present (even empty) whenever set. */
function writeNested(writer: Writer, tag: number, schema: Schema, message: Record<string, unknown>): void {
  writer.uint32(tag).fork();
  writeMessage(writer, schema, message);
  writer.ldelim();
}

function writeMessage(writer: Writer, schema: Schema, message: Record<string, unknown>): void {
  for (const [name, field] of inOrder(schema)) {
    const [number, kind] = field;
    const value = message[name];
    const tag = (number << 3) | WIRE_TYPE[kind];
    switch (field[1]) {
      case "string":
        if (value) writer.uint32(tag).string(wellFormed(value as string));
        break;
      case "optionalString":
        if (value !== undefined) writer.uint32(tag).string(wellFormed(value as string));
        break;
      case "bool":
        if (value) writer.uint32(tag).bool(true);
        break;
      case "int32":
        if (value) writer.uint32(tag).int32(value as number);
        break;
      case "double":
        if (value !== undefined && value !== 0) writeDouble(writer.uint32(tag), value as number);
        break;
      case "enum": {
        const number = value === undefined ? 0 : enumNumber(name, field[2], value as string | number);
        if (number !== 0) writer.uint32(tag).int32(number);
        break;
      }
      case "bytes":
        if (value && (value as Uint8Array).length > 0) writer.uint32(tag).bytes(value as Uint8Array);
        break;
      case "strings":
        for (const item of (value as string[] | undefined) ?? []) writer.uint32(tag).string(wellFormed(item));
        break;
      case "struct":
        if (value !== undefined) writer.uint32(tag).bytes(encodeStruct(value as StructObject));
        break;
      case "raws":
        for (const item of (value as Uint8Array[] | undefined) ?? []) writer.uint32(tag).bytes(item);
        break;
      case "message":
        if (value !== undefined) writeNested(writer, tag, field[2], value as Record<string, unknown>);
        break;
      case "repeated":
        for (const item of (value as Record<string, unknown>[] | undefined) ?? [])
          writeNested(writer, tag, field[2], item);
        break;
      case "map": {
        // As google-protobuf writes a map: entries sorted by key, each with its key and its value even when empty.
        const entries = (value as Record<string, unknown> | undefined) ?? {};
        const valueSchema = field[2];
        for (const key of Object.keys(entries).sort()) {
          writer.uint32(tag).fork().uint32(MAP_KEY).string(wellFormed(key));
          if (valueSchema === "string") writer.uint32(MAP_VALUE).string(wellFormed(entries[key] as string));
          else writeNested(writer, MAP_VALUE, valueSchema, entries[key] as Record<string, unknown>);
          writer.ldelim();
        }
        break;
      }
    }
  }
}

// A map entry's tags: its key (field 1) and its value (field 2), both length-delimited here.
const MAP_KEY = (1 << 3) | 2;
const MAP_VALUE = (2 << 3) | 2;

type Numbered = Map<number, [string, FieldOf]>;

/** A message with every field absent. */
function defaults(schema: Schema): Record<string, unknown> {
  const message: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema)) message[name] = defaultOf(field);
  return message;
}

function readMessage<S extends Schema>(reader: Reader, schema: S, end: number): Message<S> {
  const message = defaults(schema);
  const byNumber = numbered(schema);
  while (reader.pos < end) {
    const tag = reader.uint32();
    const known = byNumber.get(tag >>> 3);
    if (!known || WIRE_TYPE[known[1][1]] !== (tag & 7)) {
      reader.skipType(tag & 7);
      continue;
    }
    const [name, field] = known;
    switch (field[1]) {
      case "string":
      case "optionalString":
        message[name] = reader.string();
        break;
      case "bool":
        message[name] = reader.bool();
        break;
      case "int32":
        message[name] = reader.int32();
        break;
      case "double":
        message[name] = reader.double();
        break;
      case "enum": {
        const number = reader.int32();
        message[name] = field[2][number] ?? number;
        break;
      }
      case "bytes":
        message[name] = reader.bytes();
        break;
      case "strings":
        (message[name] as string[]).push(reader.string());
        break;
      case "struct":
        message[name] = readStruct(reader, reader.uint32() + reader.pos);
        break;
      case "raws":
        (message[name] as Uint8Array[]).push(reader.bytes());
        break;
      case "message":
        message[name] = readMessage(reader, field[2], reader.uint32() + reader.pos);
        break;
      case "repeated":
        (message[name] as unknown[]).push(readMessage(reader, field[2], reader.uint32() + reader.pos));
        break;
      case "map":
        readMapEntry(reader, field[2], message[name] as Record<string, unknown>, reader.uint32() + reader.pos);
        break;
    }
  }
  return message as Message<S>;
}

/** One entry into `map`; a key repeated keeps its last value, and a missing key or value is its default. */
function readMapEntry(reader: Reader, valueSchema: "string" | Schema, map: Record<string, unknown>, end: number) {
  let key = "";
  let value: unknown;
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag === MAP_KEY) key = reader.string();
    else if (tag === MAP_VALUE)
      value =
        valueSchema === "string" ? reader.string() : readMessage(reader, valueSchema, reader.uint32() + reader.pos);
    else reader.skipType(tag & 7);
  }
  set(map, key, value ?? (valueSchema === "string" ? "" : defaults(valueSchema)));
}

const numbering = new WeakMap<Schema, Numbered>();
function numbered(schema: Schema): Numbered {
  let byNumber = numbering.get(schema);
  if (!byNumber) {
    byNumber = new Map(Object.entries(schema).map(([name, field]) => [field[0], [name, field]]));
    numbering.set(schema, byNumber);
  }
  return byNumber;
}

/** A message's bytes as plain values; fields this provider does not know are skipped. */
export function decode<S extends Schema>(schema: S, bytes: Uint8Array): Message<S> {
  const reader = Reader.create(bytes);
  return readMessage(reader, schema, reader.len);
}

/** Plain values as a message's bytes, exactly as google-protobuf's `serializeBinary()` writes them. */
export function encode<S extends Schema>(schema: S, message: Partial<Message<S>>): Buffer {
  const writer = Writer.create();
  writeMessage(writer, schema, message as Record<string, unknown>);
  return writer.finish() as Buffer;
}
