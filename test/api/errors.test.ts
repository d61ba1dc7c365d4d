import {
  AbortedError,
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
  ResponseValidationError,
  SizeLimitError,
  createApiError,
  isApiError,
  isNameTaken,
  isNotFound,
  outcomeUnknown,
  parseErrorBody,
} from "../../provider/src/api/errors";

const at = { method: "GET", path: "/v1/projects/p/containers" };

describe("createApiError: status families", () => {
  test.each<[number, new (...a: never[]) => ApiError, string]>([
    // client errors, one family each
    [400, BadRequestError, "BAD_REQUEST"],
    [401, UnauthorizedError, "UNAUTHORIZED"],
    [402, PaymentRequiredError, "PAYMENT_REQUIRED"],
    [403, ForbiddenError, "FORBIDDEN"],
    [404, NotFoundError, "NOT_FOUND"],
    [409, ConflictError, "CONFLICT"],
    [429, RateLimitedError, "RATE_LIMITED"],
    // server errors share one family; anything else is a plain ApiError
    [500, ServerError, "INTERNAL_ERROR"],
    [502, ServerError, "BAD_GATEWAY"],
    [503, ServerError, "SERVICE_UNAVAILABLE"],
    [504, ServerError, "GATEWAY_TIMEOUT"],
    [418, ApiError, "HTTP_418"],
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
      {
        status: 404,
        headers: { "x-request-id": "req-h" },
        body: JSON.stringify({ code: "NOT_FOUND", message: "container c1 not found" }),
      },
      {
        type: NotFoundError,
        code: "NOT_FOUND",
        detail: "container c1 not found",
        requestId: "req-h",
        message: "NOT_FOUND: container c1 not found (HTTP 404, request req-h)",
      },
    ],
    [
      "{error: CODE, request_id}: error is the code; body request id wins over the header",
      {
        status: 409,
        headers: { "x-request-id": "req-h" },
        body: JSON.stringify({ error: "VOLUME_ATTACHED", request_id: "req-b" }),
      },
      {
        type: ConflictError,
        code: "VOLUME_ATTACHED",
        detail: "conflict",
        requestId: "req-b",
        message: "VOLUME_ATTACHED: conflict (HTTP 409, request req-b)",
      },
    ],
    [
      "{error: free text, request_id}: error is the message, code from the status",
      { status: 403, body: JSON.stringify({ error: "caller may not do this", request_id: "r9" }) },
      {
        type: ForbiddenError,
        code: "FORBIDDEN",
        detail: "caller may not do this",
        requestId: "r9",
        message: "FORBIDDEN: caller may not do this (HTTP 403, request r9)",
      },
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
    const a = createApiError({
      ...at,
      status: 402,
      body: JSON.stringify({ code: "INSUFFICIENT_BALANCE", message: "no balance" }),
    });
    const b = createApiError({
      ...at,
      status: 402,
      body: JSON.stringify({ error: "INSUFFICIENT_BALANCE", request_id: "x" }),
    });
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
    const e = createApiError({
      ...at,
      status: 400,
      body: JSON.stringify({ code: "BAD_IMAGE", message: "tag latest is mutable" }),
    });
    expect(e.message).toBe("BAD_IMAGE: tag latest is mutable (HTTP 400)");
    expect(e.requestId).toBeUndefined();
  });

  test("parseErrorBody tolerates nested {error: {code, message}}", () => {
    expect(parseErrorBody(JSON.stringify({ error: { code: "X_Y", message: "m" } }))).toEqual({
      code: "X_Y",
      message: "m",
      requestId: undefined,
    });
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
    expect(e.detail).toContain("[secret]");
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
    expect(
      isApiError(new NetworkError({ code: "ECONNRESET", method: "GET", path: "/", mayHaveReachedServer: true })),
    ).toBe(false);
  });

  test("NetworkError has no status and is never a 500", () => {
    const e = new NetworkError({ code: "ECONNRESET", method: "POST", path: "/v1/x", mayHaveReachedServer: true });
    expect((e as unknown as { status?: number }).status).toBeUndefined();
    expect(e).not.toBeInstanceOf(ApiError);
    expect(e.message).toContain("ECONNRESET");
    expect(e.message).toContain("may have reached the server");
    const t = new RequestTimeoutError({
      method: "POST",
      path: "/v1/x",
      mayHaveReachedServer: false,
      requestTimeoutMs: 100,
    });
    expect(t).toBeInstanceOf(NetworkError);
    expect(t.code).toBe("ETIMEDOUT");
    expect(t.message).toContain("never reached the server");
  });
});

describe("an abort's message says what the last attempt came to, never contradicting it", () => {
  const unavailable = createApiError({ ...at, status: 503, headers: { "x-request-id": "r-7" } });
  const reset = new NetworkError({ code: "ECONNRESET", ...at, mayHaveReachedServer: true });
  test.each<[string, ConstructorParameters<typeof AbortedError>[0], string]>([
    [
      "during an attempt: no answer, and it may have reached the server",
      { ...at, mayHaveReachedServer: true },
      "ABORT_ERR: the operation was aborted by the caller (GET /v1/projects/p/containers; no HTTP response; the request may have reached the server)",
    ],
    [
      'after a 503: the 503 as it was, and no "no HTTP response"',
      { ...at, mayHaveReachedServer: false, after: unavailable },
      "ABORT_ERR: the operation was aborted by the caller while GET /v1/projects/p/containers was being retried; its last attempt was answered SERVICE_UNAVAILABLE: service unavailable (HTTP 503, request r-7)",
    ],
    [
      "a create after a 503: an earlier attempt may have reached the server",
      { method: "POST", path: at.path, mayHaveReachedServer: true, after: unavailable },
      "ABORT_ERR: the operation was aborted by the caller while POST /v1/projects/p/containers was being retried; its last attempt was answered SERVICE_UNAVAILABLE: service unavailable (HTTP 503, request r-7); an earlier attempt may have reached the server",
    ],
    [
      "after a reset: that attempt had no answer, as it says",
      { ...at, mayHaveReachedServer: true, after: reset },
      "ABORT_ERR: the operation was aborted by the caller while GET /v1/projects/p/containers was being retried; its last attempt failed: ECONNRESET: network failure (GET /v1/projects/p/containers; no HTTP response; the request may have reached the server)",
    ],
  ])("%s", (_name, init, says) => {
    const e = new AbortedError(init);
    expect(e.message).toBe(says);
    // An HTTP status and "no HTTP response" never in one message.
    expect(/\(HTTP \d{3}/.test(e.message) && /no HTTP response/.test(e.message)).toBe(false);
    expect(e.mayHaveReachedServer).toBe(init.mayHaveReachedServer);
  });
});

describe("answers the client explains better than the API's text", () => {
  test.each([301, 302, 307, 308])("a %d redirect: not followed, and where it pointed", (status) => {
    const e = createApiError({
      ...at,
      status,
      headers: { location: "https://elsewhere.example.com/v1/projects/p/containers" },
      body: "",
    });
    expect(e.code).toBe("REDIRECT_NOT_FOLLOWED");
    expect(e.message).toMatch(
      new RegExp(
        /redirect to https:\/\/elsewhere\.example\.com\/v1\/projects\/p\/containers, /.source +
          /which the provider does not follow: .*Set hosting:baseUrl/.source,
      ),
    );
  });

  test("413: the request body was too large, and how large", () => {
    const e = createApiError({
      ...at,
      method: "PATCH",
      status: 413,
      body: '{"code":"PAYLOAD_TOO_LARGE","message":"body over 1 MiB"}',
      sent: { bodyBytes: 2_000_000, tokenBytes: 40 },
    });
    expect(e.message).toBe(
      "PAYLOAD_TOO_LARGE: the request body (2,000,000 bytes) is larger than the server takes (body over 1 MiB) (HTTP 413)",
    );
  });

  test("431: the headers were too large, and the token is the large one", () => {
    const e = createApiError({ ...at, status: 431, body: "", sent: { bodyBytes: 0, tokenBytes: 65_536 } });
    expect(e.code).toBe("REQUEST_HEADER_FIELDS_TOO_LARGE");
    expect(e.message).toMatch(
      /the bearer token is the only large one \(65,536 bytes\): check that hosting:token holds the access token/,
    );
  });
});

describe("isNameTaken: a create's 409 that is none of the other conflicts the API names", () => {
  test.each([
    ["POST", "NAME_TAKEN", true],
    ["POST", "CONFLICT", true],
    ["POST", "ALREADY_EXISTS", true],
    ["POST", "LINK_EXISTS", true],
    ["POST", "VOLUME_ALREADY_ATTACHED", false],
    ["POST", "AUTOSCALING_OWNS_REPLICAS", false],
    ["PATCH", "CONFLICT", false],
  ])("%s %s -> %s", (method, code, taken) => {
    expect(
      isNameTaken(createApiError({ ...at, method, status: 409, body: JSON.stringify({ code, message: "x" }) })),
    ).toBe(taken);
  });
});

describe("outcomeUnknown: a write whose effect is not known", () => {
  const network = (method: string, mayHaveReachedServer: boolean) =>
    new NetworkError({ code: "ECONNRESET", method, path: "/v1/x", mayHaveReachedServer });
  test.each<[string, unknown, boolean]>([
    ["a POST that may have reached the server, no answer", network("POST", true), true],
    ["a POST that never reached the server", network("POST", false), false],
    ["a GET, whatever happened", network("GET", true), false],
    ["a POST answered 500", createApiError({ ...at, method: "POST", status: 500, body: "" }), true],
    ["a POST answered 409", createApiError({ ...at, method: "POST", status: 409, body: "" }), false],
    [
      "a POST answered 201 with a body we cannot read",
      new ResponseValidationError({ method: "POST", path: "/v1/x", status: 201, problems: ["(root): not valid JSON"] }),
      true,
    ],
    ["a POST whose answer was too large to read", new SizeLimitError("POST", "/v1/x", "response", 1024, 201), true],
    ["a request too large to send", new SizeLimitError("POST", "/v1/x", "request", 1024), false],
  ])("%s: %s", (_name, error, unknown) => expect(outcomeUnknown(error)).toBe(unknown));
});
