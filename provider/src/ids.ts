// What an id may be: data, never a path. The API client builds every request's path from ids (api/client.ts
// `segment`), and the framework refuses an id the engine sends that could not be one, before anything reads it
// (framework/declare.ts `resourceAddress`). Below api/ and framework/; imports nothing.

/** Why `value` cannot be an id (or a project): `..`, `/` and the like would name another path; nothing when it can. */
export function notAnId(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return "it is empty";
  if (value === "." || value === "..") return "it would name another path";
  if (/[/\\?#%\s\p{Cc}]/u.test(value)) return "it holds a character that is not part of an id";
  return undefined;
}

/** The refusal of a value that is no id, naming what it should have been (`id`, `project id`). */
export const notAnIdMessage = (what: string, value: unknown, why: string) =>
  `${JSON.stringify(value)} is not a valid ${what}: ${why}; use the id the API assigned (a UUID)`;
