/**
 * The tag of an image reference: the text after the last ':' that follows the last '/'; "" if none.
 * A digest ('@sha256:...') is not a tag.
 */
export function imageTag(reference: string): string {
  const [name] = reference.split("@", 1);
  const lastSlash = name.lastIndexOf("/");
  const colon = name.indexOf(":", lastSlash + 1);
  return colon === -1 ? "" : name.slice(colon + 1);
}

/** Why an image reference would be rejected at deploy time (400 BAD_IMAGE), or undefined if it is fine. */
export function imageProblem(reference: string): string | undefined {
  const tag = imageTag(reference);
  if (tag === "") {
    return reference.includes("@")
      ? `image ${reference}: a digest without a tag is not accepted; release by a unique tag`
      : `image ${reference}: a tag is required`;
  }
  if (tag === "latest") return `image ${reference}: the mutable tag 'latest' is not accepted; release by a unique tag`;
  return undefined;
}
