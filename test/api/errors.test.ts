import {
  ApiError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitedError,
  ServerError,
  RequestTimeoutError,
  UnauthorizedError,
  createApiError,
  isApiError,
  isNotFound,
  parseErrorBody,
} from "../../provider/src/api/errors";

const at = { method: "GET", path: "/v1/projects/p/containers" };

describe("createApiError: status families", () => {
  test.each<[number, new (...a: never[]) => ApiError, string]>([
    // client errors, one family each
    [400, BadRequestError, "BAD_REQUEST"], [401, UnauthorizedError, "UNAUTHORIZED"], [402, PaymentRequiredError, "PAYMENT_REQUIRED"],
    [403, ForbiddenError, "FORBIDDEN"], [404, NotFoundError, "NOT_FOUND"], [409, ConflictError, "CONFLICT"],
    [429, RateLimitedError, "RATE_LIMITED"],
    // server errors share one family; anything else is a plain ApiError
    [500, ServerError, "INTERNAL_ERROR"], [502, ServerError, "BAD_GATEWAY"], [503, ServerError, "SERVICE_UNAVAILABLE"],
    [504, ServerError, "GATEWAY_TIMEOUT"], [418, ApiError, "HTTP_418"],
  ])("%d -> %p with derived code %s when the body has none", (status, Cls, code) => {
    const e = createApiError({ ...at, status, body: "" });
    expect(e).toBeInstanceOf(Cls);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toBeInstanceOf(Error);
    expect(e.status).toBe(status);
    expect(e.code).toBe(code);
    expect(e.method).toBe("GET");
    expect(e.path).toBe("/v1/projects/p/containers");
  });
});

describe("createApiError: both body shapes and the header", () => {
  test.each([
    [
      "{code, message} with x-request-id header",
      { status: 404, headers: { "x-request-id": "req-h" }, body: JSON.stringify({ code: "NOT_FOUND", message: "container c1 not found" }) },
      { type: NotFoundError, code: "NOT_FOUND", detail: "container c1 not found", requestId: "req-h", message: "NOT_FOUND: container c1 not found (HTTP 404, request req-h)" },
    ],
    [
      "{error: CODE, request_id}: error is the code; body request id wins over the header",
      { status: 409, headers: { "x-request-id": "req-h" }, body: JSON.stringify({ error: "VOLUME_ATTACHED", request_id: "req-b" }) },
      { type: ConflictError, code: "VOLUME_ATTACHED", detail: "conflict", requestId: "req-b", message: "VOLUME_ATTACHED: conflict (HTTP 409, request req-b)" },
    ],
    [
      "{error: free text, request_id}: error is the message, code from the status",
      { status: 403, body: JSON.stringify({ error: "caller may not do this", request_id: "r9" }) },
      { type: ForbiddenError, code: "FORBIDDEN", detail: "caller may not do this", requestId: "r9", message: "FORBIDDEN: caller may not do this (HTTP 403, request r9)" },
    ],
  ])("%s", (_name, response, expected) => {
    const e = createApiError({ ...at, ...response });
    expect(e).toBeInstanceOf(expected.type);
    expect({ code: e.code, detail: e.detail, requestId: e.requestId, message: e.message }).toEqual({
      code: expected.code,
      detail: expected.detail,
      requestId: expected.requestId,
      message: expected.message,
    });
  });

  test("both shapes give the same typed error and code", () => {
    const a = createApiError({ ...at, status: 402, body: JSON.stringify({ code: "INSUFFICIENT_BALANCE", message: "no balance" }) });
    const b = createApiError({ ...at, status: 402, body: JSON.stringify({ error: "INSUFFICIENT_BALANCE", request_id: "x" }) });
    expect(a.constructor).toBe(b.constructor);
    expect(a.code).toBe(b.code);
  });

  test("non-JSON body (a proxy's HTML page) becomes a short message", () => {
    const e = createApiError({ ...at, status: 502, body: "<html><body><h1>502 Bad Gateway</h1></body></html>" });
    expect(e).toBeInstanceOf(ServerError);
    expect(e.code).toBe("BAD_GATEWAY");
    expect(e.detail).toBe("502 Bad Gateway");
  });

  test("no request id anywhere: message without it", () => {
    const e = createApiError({ ...at, status: 400, body: JSON.stringify({ code: "BAD_IMAGE", message: "tag latest is mutable" }) });
    expect(e.message).toBe("BAD_IMAGE: tag latest is mutable (HTTP 400)");
    expect(e.requestId).toBeUndefined();
  });

  test("parseErrorBody tolerates nested {error: {code, message}}", () => {
    expect(parseErrorBody(JSON.stringify({ error: { code: "X_Y", message: "m" } }))).toEqual({ code: "X_Y", message: "m", requestId: undefined });
  });

  test("the secret token never appears, even when the server echoes it", () => {
    const token = "sim-token-very-secret";
    const e = createApiError({
      ...at,
      status: 401,
      headers: { "x-request-id": "r1" },
      body: JSON.stringify({ code: "UNAUTHORIZED", message: `invalid bearer token Bearer ${token}` }),
      secrets: [token],
    });
    expect(e.message).not.toContain(token);
    expect(JSON.stringify(e)).not.toContain(token);
    expect(String(e.stack)).not.toContain(token);
    expect(e.detail).toContain("[REDACTED]");
  });
});

describe("helpers", () => {
  test("isNotFound / isApiError", () => {
    const nf = createApiError({ ...at, status: 404, body: JSON.stringify({ code: "NOT_FOUND", message: "x" }) });
    const cf = createApiError({ ...at, status: 409, body: JSON.stringify({ code: "VOLUME_ATTACHED", message: "x" }) });
    expect(isNotFound(nf)).toBe(true);
    expect(isNotFound(cf)).toBe(false);
    expect(isNotFound(new Error("x"))).toBe(false);
    expect(isApiError(cf)).toBe(true);
    expect(isApiError(cf, "VOLUME_ATTACHED")).toBe(true);
    expect(isApiError(cf, "NOT_FOUND")).toBe(false);
    expect(isApiError(new NetworkError({ code: "ECONNRESET", method: "GET", path: "/", mayHaveReachedServer: true }))).toBe(false);
  });

  test("NetworkError has no status and is never a 500", () => {
    const e = new NetworkError({ code: "ECONNRESET", method: "POST", path: "/v1/x", mayHaveReachedServer: true });
    expect((e as unknown as { status?: number }).status).toBeUndefined();
    expect(e).not.toBeInstanceOf(ApiError);
    expect(e.message).toContain("ECONNRESET");
    expect(e.message).toContain("may have reached the server");
    const t = new RequestTimeoutError({ method: "POST", path: "/v1/x", mayHaveReachedServer: false, requestTimeoutMs: 100 });
    expect(t).toBeInstanceOf(NetworkError);
    expect(t.code).toBe("ETIMEDOUT");
    expect(t.message).toContain("never reached the server");
  });
});
