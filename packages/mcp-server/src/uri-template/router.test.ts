import { describe, expect, it } from "vitest";
import { createUriTemplateRouter } from "./router";
import { createUriTemplate } from "./template";

describe("createUriTemplateRouter", () => {
  it("finds the most specific template: longest literal prefix, then the one added first", () => {
    const router = createUriTemplateRouter<string>();
    router.add("file:///{+path}", "any file");
    router.add("file:///logs/{name}", "log");
    router.add("file:///logs/{+rest}", "log tree");
    expect(router.match("file:///logs/app")?.value).toBe("log");
    expect(router.match("file:///logs/app/2024")?.value).toBe("log tree");
    expect(router.match("file:///etc/hosts")).toMatchObject({ value: "any file", variables: { path: "etc/hosts" } });
    expect(router.match("http://x")).toBeUndefined();
  });

  it("replaces a template added twice, keeps its rank, and removes by text", () => {
    const router = createUriTemplateRouter<number>();
    router.add("a/{x}", 1);
    router.add("a/{y}", 2);
    router.add(createUriTemplate("a/{x}"), 3);
    expect(router.size).toBe(2);
    expect(router.match("a/1")?.value).toBe(3);
    expect(router.remove("a/{x}")).toBe(true);
    expect(router.remove("a/{x}")).toBe(false);
    expect(router.match("a/1")?.value).toBe(2);
  });
});
