// Format checks for Check. Each returns what is wrong and what would be right, or nothing.
// They only see known values of the declared type.
import type { Validator } from "./spec";
import type { PropertyValue } from "./values";

const NAME = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const NAME_MAX = 63;

export const resourceName: Validator = (value) => {
  const name = value as string;
  if (name.length === 0) return "name must not be empty: use lowercase letters, digits and dashes, e.g. \"web\"";
  if (name.length > NAME_MAX) return `name is ${name.length} characters long; use at most ${NAME_MAX}`;
  if (!NAME.test(name)) {
    return `name "${name}" is not valid: use lowercase letters, digits and dashes, starting with a letter ` +
      `and not ending with a dash, e.g. "web-api"`;
  }
  return undefined;
};

const IMAGE_EXAMPLE = "registry.example.com/team/app:1.4.2";
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;

/** `<registry_host>/<namespace>/<repo>:<tag>` with an immutable tag; the API rolls out by tag. */
export const imageReference: Validator = (value) => {
  const image = value as string;
  const fail = (why: string) => `image "${image}" ${why}; use <registry_host>/<namespace>/<repo>:<tag>, e.g. "${IMAGE_EXAMPLE}"`;
  if (image.trim() === "") return `image must not be empty; use <registry_host>/<namespace>/<repo>:<tag>, e.g. "${IMAGE_EXAMPLE}"`;
  if (/\s/.test(image)) return fail("contains whitespace");
  const [withoutDigest, digest] = image.split("@", 2);
  const slash = withoutDigest.lastIndexOf("/");
  const colon = withoutDigest.lastIndexOf(":");
  const hasTag = colon > slash;
  if (!hasTag && digest !== undefined) return fail("has a digest but no tag: the platform rolls out releases by tag");
  if (!hasTag) return fail("has no tag: every release needs a unique, immutable tag");
  const tag = withoutDigest.slice(colon + 1);
  const repository = withoutDigest.slice(0, colon);
  if (tag === "latest") return fail("uses the mutable tag \"latest\", which the platform rejects");
  if (!TAG.test(tag)) return fail(`has an invalid tag "${tag}"`);
  const parts = repository.split("/");
  const host = parts[0];
  if (parts.length < 2 || !(host.includes(".") || host.includes(":") || host === "localhost")) {
    return fail("names no registry host");
  }
  const path = parts.slice(1);
  if (path.some((part) => part !== part.toLowerCase())) return fail("has uppercase letters in its repository path");
  if (!path.every((part) => PATH_COMPONENT.test(part))) return fail("has an invalid repository path");
  return undefined;
};

export const port: Validator = (value) => {
  const n = value as number;
  return n >= 1 && n <= 65535 ? undefined : `port ${n} is out of range; use a port from 1 to 65535 (the platform's apps serve on 8080)`;
};

export const positive: Validator = (value) => {
  const n = value as number;
  return n > 0 ? undefined : `must be greater than zero, not ${n}`;
};

export const absolutePath: Validator = (value) => {
  const path = value as string;
  if (path === "") return "mountPath must not be empty; use an absolute path such as \"/data\"";
  if (!path.startsWith("/")) return `mountPath "${path}" is relative; use an absolute path such as "/${path.replace(/^\.?\/*/, "")}"`;
  if (path.split("/").some((segment) => segment === ".." || segment === ".")) {
    return `mountPath "${path}" contains "." or ".." segments; use a plain absolute path such as "/data"`;
  }
  if (/\s/.test(path)) return `mountPath "${path}" contains whitespace; use a path such as "/data"`;
  if (path === "/") return "mountPath \"/\" would cover the app's whole file system; use a directory such as \"/data\"";
  if (path.length > 1 && path.endsWith("/")) return `mountPath "${path}" ends with "/"; use "${path.replace(/\/+$/, "")}"`;
  return undefined;
};

const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export const environment: Validator = (value) => {
  for (const key of Object.keys(value as Record<string, PropertyValue>)) {
    if (key === "") return "env has an empty variable name; every key must be a name such as \"LOG_LEVEL\"";
    if (!ENV_KEY.test(key)) {
      return `env variable name "${key}" is not valid (no "=", spaces or leading digits); use a name such as "LOG_LEVEL"`;
    }
  }
  return undefined;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const uuid: Validator = (value) =>
  UUID.test(value as string) ? undefined : `"${String(value)}" is not an id; use the UUID the API assigned, e.g. a resource's \`id\` output`;

const HOST = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(:[0-9]{1,5})?$/;

export const hostname: Validator = (value) =>
  HOST.test(value as string)
    ? undefined
    : `host "${String(value)}" is not a registry host name; use a name such as "registry.example.com" (no scheme or path)`;

export const lowercaseWord: Validator = (value) =>
  /^[a-z]+$/.test(value as string) ? undefined : `"${String(value)}" is not a link type; use lowercase letters, e.g. "http"`;

/** Runs several validators in order and reports the first problem. */
export const all = (...validators: Validator[]): Validator => (value) => {
  for (const validate of validators) {
    const problem = validate(value);
    if (problem) return problem;
  }
  return undefined;
};
