// Format checks for Check, in the manner of terraform-plugin-framework-validators: each is a
// parameterised factory, the result receives the property's path and returns what is wrong
// and what would be right, starting with the path. They only see known values of the
// declared type, and name no property themselves.
import { createHash } from "node:crypto";
import type { NameRule, ObjectRule, Validator } from "./spec";
import type { PropertyValue } from "./values";

/** Runs several validators in order and reports the first problem. */
export const all =
  (...validators: Validator[]): Validator =>
  (value, path) => {
    for (const validate of validators) {
      const problem = validate(value, path);
      if (problem) return problem;
    }
    return undefined;
  };

/** A whole number of at least `min`. */
export const atLeast =
  (min: number): Validator =>
  (value, path) => {
    const n = value as number;
    if (n >= min) return undefined;
    const wanted = min === 0 ? "zero or more" : min === 1 ? "greater than zero" : `at least ${min}`;
    return `${path} must be ${wanted}, not ${n}`;
  };

/** A number from `min` to `max`; `hint` says what is usual. */
export const between =
  (min: number, max: number, hint?: string): Validator =>
  (value, path) => {
    const n = value as number;
    if (n >= min && n <= max) return undefined;
    return `${path} ${n} is out of range; use a value from ${min} to ${max}${hint ? ` (${hint})` : ""}`;
  };

/** A string matching `pattern`; `expected` says what a valid one looks like. */
export const matches =
  (pattern: RegExp, expected: string): Validator =>
  (value, path) =>
    pattern.test(value as string) ? undefined : `${path} "${String(value)}" is not valid; use ${expected}`;

/** Every key of a map passes `validate` (given the key as the value, and the map's path). */
export const keys =
  (validate: Validator): Validator =>
  (value, path) => {
    for (const key of Object.keys(value as Record<string, PropertyValue>)) {
      const problem = validate(key, path);
      if (problem) return problem;
    }
    return undefined;
  };

/** Every item of a list passes `validate` (its path is `<list>[<index>]`). */
export const items =
  (validate: Validator): Validator =>
  (value, path) => {
    for (const [index, item] of (value as PropertyValue[]).entries()) {
      const problem = validate(item, `${path}[${index}]`);
      if (problem) return problem;
    }
    return undefined;
  };

/** No item of a list twice. */
export const distinct = (): Validator => (value, path) => {
  const list = value as PropertyValue[];
  const twice = list.find(
    (item, index) => list.findIndex((other) => JSON.stringify(other) === JSON.stringify(item)) !== index,
  );
  return twice === undefined ? undefined : `${path} lists ${JSON.stringify(twice)} twice; list each once`;
};

const DNS_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** A name the platform accepts: a DNS label of at most `max` characters. */
export const dnsLabel =
  (max = 63): Validator =>
  (value, path) => {
    const name = value as string;
    if (name.length === 0) return `${path} must not be empty: use lowercase letters, digits and dashes, e.g. "web"`;
    if (name.length > max) return `${path} is ${name.length} characters long; use at most ${max}`;
    if (!DNS_LABEL.test(name)) {
      return `${path} "${name}" is not valid: use lowercase letters, digits and dashes, starting with a letter and not ending with a dash, e.g. "web-api"`;
    }
    return undefined;
  };

/** Hex characters of the digest that stands for the middle of a name too long to keep whole. */
export const MIDDLE_DIGEST_LENGTH = 6;

/**
 * Any text made a DNS label of at most `maxLength` characters: accents dropped, lowercased, every
 * run of other characters one dash, from the first letter on, without a dash at the end; nothing
 * when no letter is left ("123", "日本"). A text too long keeps its start and its tail and loses its
 * middle, which a digest of the whole text stands for: an autonaming pattern puts the stack and the
 * random part at the tail (`${name}-${stack}`), so two long names that differ anywhere stay two names.
 */
export function fitDnsLabel(text: string, maxLength: number): string | undefined {
  const dashed = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^[^a-z]+/, "")
    .replace(/-+$/, "");
  if (dashed.length === 0) return undefined;
  if (dashed.length <= maxLength) return dashed;
  const room = maxLength - MIDDLE_DIGEST_LENGTH - 2;
  // Too short a label for both ends and a digest (no rule here is): its beginning.
  if (room < 2) return dashed.slice(0, maxLength).replace(/-+$/, "");
  const digest = createHash("sha256").update(dashed).digest("hex").slice(0, MIDDLE_DIGEST_LENGTH);
  const tailLength = Math.floor(room / 2);
  const head = dashed.slice(0, room - tailLength).replace(/-+$/, "");
  const tail = dashed.slice(dashed.length - tailLength).replace(/^-+/, "");
  return `${head}-${digest}-${tail}`;
}

/** The API's name rule (DESIGN: a DNS label), for names the provider makes (autonaming). */
export const DNS_LABEL_NAMES: NameRule = { validate: dnsLabel(), fit: fitDnsLabel, maxLength: 63 };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id the API assigned. */
export const uuid = (): Validator => (value, path) =>
  UUID.test(value as string)
    ? undefined
    : `${path} "${String(value)}" is not an id; use the UUID the API assigned, e.g. a resource's \`id\` output`;

const HOST = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(:[0-9]{1,5})?$/;

/** A host name with an optional port, no scheme or path. */
export const hostname = (): Validator => (value, path) =>
  HOST.test(value as string)
    ? undefined
    : `${path} "${String(value)}" is not a host name; use a name such as "registry.example.com" (no scheme or path)`;

const IMAGE_FORM = `<registry_host>/<namespace>/<repo>:<tag>, e.g. "registry.example.com/team/app:1.4.2"`;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;

/** `<registry_host>/<namespace>/<repo>:<tag>` with an immutable tag: the platform rolls out by tag. */
export const imageReference = (): Validator => (value, path) => {
  const image = value as string;
  const fail = (why: string) => `${path} "${image}" ${why}; use ${IMAGE_FORM}`;
  if (image.trim() === "") return `${path} must not be empty; use ${IMAGE_FORM}`;
  if (/\s/.test(image)) return fail("contains whitespace");
  const [withoutDigest, digest] = image.split("@", 2);
  const slash = withoutDigest.lastIndexOf("/");
  const colon = withoutDigest.lastIndexOf(":");
  const hasTag = colon > slash;
  if (!hasTag && digest !== undefined) return fail("has a digest but no tag: the platform rolls out releases by tag");
  if (!hasTag) return fail("has no tag: every release needs a unique, immutable tag");
  const tag = withoutDigest.slice(colon + 1);
  const repository = withoutDigest.slice(0, colon);
  if (tag === "latest") return fail('uses the mutable tag "latest", which the platform rejects');
  if (!TAG.test(tag)) return fail(`has an invalid tag "${tag}"`);
  const parts = repository.split("/");
  const host = parts[0];
  if (parts.length < 2 || !(host.includes(".") || host.includes(":") || host === "localhost")) {
    return fail("names no registry host");
  }
  const components = parts.slice(1);
  if (components.some((part) => part !== part.toLowerCase()))
    return fail("has uppercase letters in its repository path");
  if (!components.every((part) => PATH_COMPONENT.test(part))) return fail("has an invalid repository path");
  return undefined;
};

/** An absolute directory path such as `/data`. */
export const absolutePath = (): Validator => (value, path) => {
  const dir = value as string;
  if (dir === "") return `${path} must not be empty; use an absolute path such as "/data"`;
  if (!dir.startsWith("/"))
    return `${path} "${dir}" is relative; use an absolute path such as "/${dir.replace(/^\.?\/*/, "")}"`;
  if (dir.split("/").some((segment) => segment === ".." || segment === ".")) {
    return `${path} "${dir}" contains "." or ".." segments; use a plain absolute path such as "/data"`;
  }
  if (/\s/.test(dir)) return `${path} "${dir}" contains whitespace; use a path such as "/data"`;
  if (dir === "/") return `${path} "/" would cover the app's whole file system; use a directory such as "/data"`;
  if (dir.endsWith("/")) return `${path} "${dir}" ends with "/"; use "${dir.replace(/\/+$/, "")}"`;
  return undefined;
};

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** How much of a long key a message quotes. */
const QUOTED_KEY_CHARACTERS = 40;

/**
 * An environment variable name (as a map key), of at most `maxBytes` (UTF-8) when given; a message quotes a long name
 * cut short.
 */
export const variableName =
  ({ maxBytes, why }: { maxBytes?: number; why?: string } = {}): Validator =>
  (value, path) => {
    const name = value as string;
    if (maxBytes !== undefined && byteLength(name) > maxBytes) {
      const quoted = name.length > QUOTED_KEY_CHARACTERS ? `${name.slice(0, QUOTED_KEY_CHARACTERS)}…` : name;
      return `${path} variable name "${quoted}" is ${byteLength(name).toLocaleString("en")} bytes; a name may be at most ${maxBytes} bytes${why ? ` (${why})` : ""}`;
    }
    return wellFormedVariableName(name, path);
  };

function wellFormedVariableName(name: string, path: string): string | undefined {
  if (name === "") return `${path} has an empty variable name; every key must be a name such as "LOG_LEVEL"`;
  if (!VARIABLE_NAME.test(name)) {
    return `${path} variable name "${name}" is not valid (no "=", spaces or leading digits); use a name such as "LOG_LEVEL"`;
  }
  return undefined;
}

/** An object rule: exactly one of these properties is set (`id` or `name`, not both, not neither). */
export const exactlyOneOf =
  (...names: string[]): ObjectRule =>
  (values) => {
    const set = names.filter((n) => values[n] !== undefined && values[n] !== null);
    if (set.length === 1) return undefined;
    const which = set.length === 0 ? "neither was given" : `${set.join(" and ")} were both given`;
    return { property: set[1] ?? names[0], reason: `set exactly one of ${names.join(" or ")}: ${which}` };
  };

const byteLength = (text: string) => Buffer.byteLength(text, "utf8");
const kib = (bytes: number) => (bytes >= 1024 && bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`);

/**
 * A string of at most `max` bytes (UTF-8): what the provider sends is bounded; `hint` says where larger data belongs.
 */
export const maxBytes =
  (max: number, hint?: string): Validator =>
  (value, path) => {
    const size = byteLength(value as string);
    return size <= max
      ? undefined
      : `${path} is ${size.toLocaleString("en")} bytes; it may be at most ${kib(max)}${hint ? ` (${hint})` : ""}`;
  };

/**
 * A map of strings, bounded: at most `entries` entries, each value at most `valueBytes`, and `totalBytes` in all (keys
 * and values).
 */
export const boundedMap =
  ({
    entries,
    valueBytes,
    totalBytes,
    hint,
  }: {
    entries: number;
    valueBytes: number;
    totalBytes: number;
    hint?: string;
  }): Validator =>
  (value, path) => {
    const map = value as Record<string, string>;
    const keys = Object.keys(map);
    const then = hint ? ` (${hint})` : "";
    if (keys.length > entries)
      return `${path} has ${keys.length.toLocaleString("en")} entries; it may have at most ${entries.toLocaleString("en")}${then}`;
    const tooLong = keys.find((key) => typeof map[key] === "string" && byteLength(map[key]) > valueBytes);
    if (tooLong !== undefined) return maxBytes(valueBytes, hint)(map[tooLong], `${path}.${tooLong}`);
    const total = keys.reduce(
      (sum, key) => sum + byteLength(key) + (typeof map[key] === "string" ? byteLength(map[key]) : 0),
      0,
    );
    return total <= totalBytes
      ? undefined
      : `${path} holds ${total.toLocaleString("en")} bytes in all; it may hold at most ${kib(totalBytes)}${then}`;
  };
