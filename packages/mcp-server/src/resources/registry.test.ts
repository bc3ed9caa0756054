import { describe, expect, it } from "vitest";
import { createResourceRecord, createTemplateRecord } from "./registry";

describe("resource registration checks", () => {
  const read = () => "x";
  it("keeps only defined descriptor fields and freezes them", () => {
    const record = createResourceRecord({ uri: "a://x", name: "x", title: undefined, size: 3, icons: [{ src: "https://e.com/i.svg" }] }, read);
    expect(record.descriptor).toEqual({ uri: "a://x", name: "x", size: 3, icons: [{ src: "https://e.com/i.svg" }] });
    expect(Object.isFrozen(record.descriptor)).toBe(true);
  });

  it.each([
    [{ uri: "", name: "x" }, /uri must be a non-empty string/],
    [{ uri: "a://x", name: "" }, /name must be/],
    [{ uri: "a://x", name: "x", size: -1 }, /size/],
    [{ uri: "a://x", name: "x", icons: [{ src: "ftp://x" }] }, /https: or data:/],
    [{ uri: "a://x", name: "x", icons: "x" }, /icons must be an array/],
    [{ uri: "a://x", name: "x", mimeType: 3 }, /mimeType must be a string/],
  ])("refuses %j", (def, message) => {
    expect(() => createResourceRecord(def as never, read)).toThrow(message);
  });

  it("refuses a missing reader, a bad template, a completer for no variable", () => {
    expect(() => createResourceRecord({ uri: "a://x", name: "x" }, undefined as never)).toThrow(/reader function/);
    expect(() => createTemplateRecord({ uriTemplate: "a://{x", name: "x" }, read)).toThrow(/never closed/);
    expect(() => createTemplateRecord({ uriTemplate: "a://{x}", name: "x", complete: { y: ["1"] } }, read)).toThrow(/names no variable/);
    expect(createTemplateRecord({ uriTemplate: "a://{x}", name: "x", complete: { x: ["1"] } }, read).complete).toEqual({ x: ["1"] });
  });
});
