// The project's links by consumer (resources/links.ts), which every Container Read asks for: made once per list
// answer, and in work linear in the list's size, however many links share a consumer.
import type { Context } from "../../provider/src/resources/common";
import { linksByConsumer, type LinkRecord } from "../../provider/src/resources/links";

const PROJECT = "00000000-0000-4000-8000-0000000a11ce";

/** A context whose client answers the service links' list with `links`. */
const answering = (links: LinkRecord[]) =>
  ({ client: { of: () => ({ list: async () => links }) }, signal: new AbortController().signal }) as unknown as Context;

const linksOf = (n: number, consumers: number): LinkRecord[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `link-${i}`,
    projectId: PROJECT,
    consumerServiceId: `app-${i % consumers}`,
    providerServiceId: `db-${i}`,
    linkType: "http",
    injectedEnv: {},
  }));

test("each consumer's links, in the list's order", async () => {
  const links = linksOf(6, 2);
  const of = await linksByConsumer(answering(links), PROJECT);
  expect(of("app-0").map((l) => l.id)).toEqual(["link-0", "link-2", "link-4"]);
  expect(of("app-1").map((l) => l.id)).toEqual(["link-1", "link-3", "link-5"]);
  expect(of("app-9")).toEqual([]);
});

test("linear in the list's size, however many links share a consumer", async () => {
  // Each consumer's links were copied at every link added: 16 times the work for 4 times the links.
  const [small, large] = [linksOf(25_000, 50), linksOf(100_000, 50)];
  const indexing = async (links: LinkRecord[]) => {
    const started = process.hrtime.bigint();
    await linksByConsumer(answering([...links]), PROJECT); // a new answer: indexed afresh
    return Number(process.hrtime.bigint() - started);
  };
  // The fastest of several runs: a loaded machine only makes a run slower.
  let [fastestSmall, fastestLarge] = [Infinity, Infinity];
  for (let run = 0; run < 15; run++) {
    fastestSmall = Math.min(fastestSmall, await indexing(small));
    fastestLarge = Math.min(fastestLarge, await indexing(large));
  }
  expect(fastestLarge / fastestSmall).toBeLessThan(10);
});
