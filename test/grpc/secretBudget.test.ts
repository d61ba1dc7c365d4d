// A secret past the plugin's budget of secrets it can blank (redact.ts SECRET_BUDGET) is not forgotten: a message
// that may hold it is withheld. But only such a message: one 5 MB secret, which Check refuses anyway, used to make
// every later message of the process read "[a message was withheld…]", unrelated Check failures included.
import { randomBytes } from "node:crypto";
import { secret } from "./engine";
import { CONTAINER, useFixture } from "./fixture";

const fixture = useFixture();
const IMAGE = "registry.example.com/team/web:1.0.0";
const WITHHELD = "[a message was withheld: it could not be checked for secrets]";

test("after a 5 MB secret's Check, an unrelated bad input's Check failure is readable; one quoting the secret is not", async () => {
  const huge = randomBytes(3_750_000).toString("base64"); // 5,000,000 characters
  const oversized = await fixture.plugin.check(CONTAINER, "big", {
    name: "big",
    image: IMAGE,
    env: secret({ BIG: huge }),
  });
  expect(oversized.failures.map((f) => f.property)).toEqual(["env"]);

  const unrelated = await fixture.plugin.check(CONTAINER, "other", { name: "other", image: "not an image" });
  expect(unrelated.failures).toEqual([
    {
      property: "image",
      reason: expect.stringMatching(/^image "not an image" contains whitespace; use <registry_host>/),
    },
  ]);

  // Fail closed all the same: a message holding a run of the secret is withheld, whole.
  const echo = await fixture.plugin.check(CONTAINER, "echo", { name: "echo", image: huge.slice(1_000, 1_040) });
  expect(echo.failures).toEqual([{ property: "image", reason: WITHHELD }]);
});
