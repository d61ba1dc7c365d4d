// A small declaration with one property per flag, for the framework's case tables.
import type { Field, ResourceSpec } from "../../provider/src/framework/spec";
import { positive } from "../../provider/src/framework/validators";

const field = (name: string, type: Field["type"], extra: Partial<Field> = {}): Field => ({
  name,
  type,
  required: false,
  description: `the ${name}`,
  ...extra,
});

export const spec: ResourceSpec = {
  token: "hosting:index:Sample",
  description: "",
  fields: [
    field("name", { kind: "string" }, { required: true, replaceOnChange: true }),
    field("image", { kind: "string" }),
    field("port", { kind: "integer" }, { default: 8080 }),
    field("size", { kind: "integer" }, { growOnly: true, validate: positive }),
    field("password", { kind: "string" }, { secret: true, notReturned: true }),
    field("cpu", { kind: "integer" }, { fixedAfterCreate: "the API cannot resize it" }),
    field("env", { kind: "map", values: { kind: "string" } }, { clearedWhenRemoved: true }),
    field("projectId", { kind: "string" }, { replaceOnChange: true, configDefault: "projectId" }),
    field("status", { kind: "string" }, { output: true }),
  ],
};
