// What the flags say about a resource's state around a lifecycle call: the inputs an update
// works towards, the outputs a call records, and the inputs a read implies.
import { managedItems } from "./diff";
import { type ObjectSpec, alwaysFilled, clearedValue, filledIn, inputFields } from "./spec";
import { deepEqual, type PropertyMap, type PropertyValue } from "./values";

/**
 * The inputs a create or an update works towards: the checked inputs, with whatever Check fills
 * filled in (a state written before a default existed may lack it), and the empty value for a
 * property the program took out that removal clears (`env: {}`).
 */
export function desiredInputs(
  spec: ObjectSpec,
  news: PropertyMap,
  oldInputs: PropertyMap,
  config: PropertyMap = {},
): PropertyMap {
  const wanted: PropertyMap = { ...news };
  for (const field of inputFields(spec)) {
    if (wanted[field.name] !== undefined) continue;
    const filled = filledIn(field, { config });
    if (filled !== undefined) wanted[field.name] = filled;
    else if (field.clearedWhenRemoved && oldInputs[field.name] !== undefined) wanted[field.name] = clearedValue(field);
  }
  return wanted;
}

/**
 * The outputs to record: what the lifecycle returned (the live values), and for the properties
 * the API never returns, the inputs they were set from.
 */
export function recordedOutputs(spec: ObjectSpec, live: PropertyMap, inputs: PropertyMap): PropertyMap {
  const outputs: PropertyMap = { ...live };
  for (const field of spec.fields) {
    if (field.notReturned && inputs[field.name] !== undefined) outputs[field.name] = inputs[field.name];
  }
  return outputs;
}

/**
 * The inputs a read implies, as Check would leave them. On refresh: the properties the program
 * had set (and those Check fills in), at their live values. On import (no old inputs): every
 * input the API returns, except a cleared-by-removal property that holds its empty value, and a
 * property whose value the provider's configuration supplies anyway (the default project), so
 * that a program which leaves them out diffs as unchanged (and `pulumi import` writes neither
 * into the code it generates). Properties the API never returns keep their old input.
 */
export function impliedInputs(
  spec: ObjectSpec,
  outputs: PropertyMap,
  oldInputs: PropertyMap = {},
  config: PropertyMap = {},
): PropertyMap {
  const importing = Object.keys(oldInputs).length === 0;
  const inputs: PropertyMap = {};
  for (const field of inputFields(spec)) {
    if (!importing && !alwaysFilled(field) && oldInputs[field.name] === undefined) continue;
    const read = field.notReturned ? oldInputs[field.name] : outputs[field.name];
    // On refresh, an append-only list's items made outside the program stay out of its inputs (managedItems).
    const value = importing ? read : managedItems(field, read, oldInputs[field.name], undefined);
    if (value === undefined || value === null) continue;
    if (importing && (field.clearedWhenRemoved || field.appendOnly) && isEmpty(value)) continue;
    if (importing && field.configDefault && deepEqual(config[field.configDefault], value)) continue;
    inputs[field.name] = value;
  }
  return inputs;
}

const isEmpty = (value: PropertyValue) =>
  typeof value === "object" && value !== null && Object.keys(value).length === 0;
