// The base URL a client is configured with (api/http.ts `parseBaseUrl`).
import { parseBaseUrl } from "../../provider/src/api/http";

describe("parseBaseUrl (api/http.ts): the prefix every path goes under", () => {
  test.each([
    ["https://api.example.com", ""],
    ["https://api.example.com/", ""],
    ["https://api.example.com/v1", ""],
    ["https://api.example.com/v1/", ""],
    ["https://gw.example.com/hosting/v1", "/hosting"],
    ["https://gw.example.com/hosting", "/hosting"],
    ["https://gw.example.com/v10", "/v10"],
  ])("%s -> %j (the client adds /v1 itself)", (url, prefix) => {
    expect(parseBaseUrl(url).prefix).toBe(prefix);
  });
});
