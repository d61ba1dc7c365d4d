// A small declaration with one property per flag, for the framework's case tables.
import type { Field, ObjectSpec } from "../../provider/src/framework/spec";
import { atLeast } from "../../provider/src/framework/validators";

export const field = (name: string, type: Field["type"], extra: Partial<Field> = {}): Field => ({
  name,
  type,
  required: false,
  description: `the ${name}`,
  ...extra,
});

export const spec: ObjectSpec = {
  token: "hosting:index:Sample",
  fields: [
    field("name", { kind: "string" }, { required: true, replaceOnChange: true }),
    field("image", { kind: "string" }),
    field("port", { kind: "integer" }, { default: 8080 }),
    field("size", { kind: "integer" }, { growOnly: true, validate: atLeast(1) }),
    field("password", { kind: "string" }, { secret: true, notReturned: true }),
    field("rollback", { kind: "boolean" }, { notReturned: true, default: false }),
    field("cpu", { kind: "integer" }, { fixedAfterCreate: "the API cannot resize it" }),
    field("env", { kind: "map", values: { kind: "string" } }, { clearedWhenRemoved: true }),
    field("projectId", { kind: "string" }, { replaceOnChange: true, configDefault: "projectId" }),
    field(
      "links",
      { kind: "array", items: { kind: "string" } },
      { unordered: true, appendOnly: "the API cannot remove one" },
    ),
    field("status", { kind: "string" }, { output: true, movesOnUpdate: true }),
    field("host", { kind: "string" }, { output: true, movesOnUpdate: ["port"] }),
    field("createdAt", { kind: "string" }, { output: true }),
  ],
};
