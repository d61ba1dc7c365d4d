import { createApiError } from "../../provider/src/api/errors";
import { withHint } from "../../provider/src/server/hints";

const apiError = (status: number, code: string) =>
  createApiError({
    status,
    method: "POST",
    path: "/v1/x",
    body: JSON.stringify({ code, message: "m" }),
    headers: { "x-request-id": "r1" },
  });

test.each([
  [409, "NAME_TAKEN", /NAME_TAKEN: m \(HTTP 409, request r1\): another resource .*pulumi import/],
  [401, "UNAUTHORIZED", /UNAUTHORIZED.*pulumi config set hosting:token --secret/],
  [409, "RWO_REPLICA_LIMIT", /replicas: 1/],
])("an API error %i %s keeps its code and request id and says what to do", (status, code, expected) => {
  expect(withHint(apiError(status, code))).toMatch(expected);
});

test("errors without a known code pass through unchanged", () => {
  expect(withHint(apiError(500, "INTERNAL_ERROR"))).toBe(apiError(500, "INTERNAL_ERROR").message);
  expect(withHint(new Error("plain"))).toBe("plain");
});
