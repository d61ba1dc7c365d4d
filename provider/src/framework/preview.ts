// What a preview can say about a resource's outputs, from the flags alone: a create knows its
// inputs and nothing else; an update keeps the old outputs, except those the update may move.
import { type Field, type ObjectSpec, outputFields } from "./spec";
import { type PropertyMap, Unknown, containsUnknown, deepEqual } from "./values";
import { desiredInputs } from "./state";

/** A create's preview: the inputs, and every output still to be computed. */
export function previewCreate(spec: ObjectSpec, inputs: PropertyMap): PropertyMap {
  const preview: PropertyMap = { ...inputs };
  for (const field of outputFields(spec)) preview[field.name] = Unknown;
  return preview;
}

/** An update's preview: the new inputs over the old outputs, with the outputs it may move unknown. */
export function previewUpdate(
  spec: ObjectSpec,
  olds: PropertyMap,
  news: PropertyMap,
  oldInputs: PropertyMap,
): PropertyMap {
  const wanted = desiredInputs(spec, news, oldInputs);
  const preview: PropertyMap = { ...olds, ...wanted };
  for (const field of outputFields(spec)) {
    if (moves(field, olds, wanted)) preview[field.name] = Unknown;
  }
  return preview;
}

function moves(field: Field, olds: PropertyMap, wanted: PropertyMap): boolean {
  const rule = field.movesOnUpdate;
  if (rule === undefined) return false;
  if (rule === true) return true;
  return rule.some(
    (input) =>
      containsUnknown(wanted[input]) || (wanted[input] !== undefined && !deepEqual(wanted[input], olds[input])),
  );
}
