import { attachmentId, parseAttachmentId } from "../../provider/src/resources/volumeAttachment";

test("the id is <volumeId>:<containerId> and parses back", () => {
  expect(parseAttachmentId(attachmentId("v1", "c1"))).toEqual({ volumeId: "v1", containerId: "c1" });
});

test.each(["v1", "v1:", ":c1", "v1:c1:x"])("%j is refused, saying the form", (id) => {
  expect(() => parseAttachmentId(id)).toThrow(/<volumeId>:<containerId>/);
});
